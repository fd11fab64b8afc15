/// Limits and identity of an ``UpstreamClient``. A plain value: thread-safe.
public struct UpstreamClientConfiguration: Sendable {
    /// Transfers running at once; further ones wait in a queue (their timeout starts when they run).
    public var maxConcurrentTransfers = 64
    /// Largest body accepted, counted after decompression; larger ones fail with ``UpstreamError/bodyTooLarge``.
    public var maxBodyBytes = 8 << 20
    /// Most bytes decoded per byte received for a compressed body once it has passed
    /// `decompressionCheckBytes`; past it the transfer stops with ``UpstreamError/bodyTooLarge``. A gzip bomb
    /// (150:1 to 1,000:1) then costs a megabyte of inflating, not `maxBodyBytes`; JSON pages compress 5-50:1.
    public var maxDecompressionRatio = 100
    /// Decoded bytes after which `maxDecompressionRatio` is checked (small, very repetitive bodies pass).
    public var decompressionCheckBytes = 1 << 20
    /// Redirects followed (http and https only) before ``UpstreamError/tooManyRedirects``.
    public var maxRedirects = 5
    /// Limit for the connect phase of each transfer (capped by the request's own timeout).
    public var connectTimeout: Duration = .seconds(5)
    /// A transfer slower than `lowSpeedBytesPerSecond` for `lowSpeedSeconds` in a row fails as timed out, so a
    /// trickling upstream cannot hold a slot until the total timeout.
    public var lowSpeedBytesPerSecond = 16
    /// See `lowSpeedBytesPerSecond`.
    public var lowSpeedSeconds = 10
    /// The `User-Agent` header sent with every request.
    public var userAgent = "Rowstream/0.1"

    /// The defaults above.
    public init() {}
}
