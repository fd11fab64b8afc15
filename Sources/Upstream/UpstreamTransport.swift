/// What sends one ``UpstreamRequest`` and returns its ``UpstreamResponse``: the seam between the page source (and
/// so the cache and the walk) and the wire. ``UpstreamClient`` (libcurl) is the one in production; tests of the
/// cache and walk answer in-process (docs/CONTRIBUTING.md, "Testing a cache or walk in-process").
///
/// The contract every conformer keeps, as ``UpstreamClient/fetch(_:)`` does:
/// - `fetch` may be called from any task, concurrently; it never blocks the calling thread (it suspends).
/// - A non-2xx answer is returned, not thrown. A 3xx answer to a request with `followRedirects == false` is
///   returned with its ``UpstreamResponse/redirectURL``, absolute.
/// - Cancelling the calling task ends the fetch promptly with ``UpstreamError/cancelled``.
/// - A request that fails ``UpstreamRequest`` validation throws before anything is sent.
public protocol UpstreamTransport: Sendable {
    /// Performs `request` and returns the upstream's answer, whatever its status.
    func fetch(_ request: UpstreamRequest) async throws(UpstreamError) -> UpstreamResponse
}
