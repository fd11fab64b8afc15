/// Why a fetch failed.
///
/// ``description`` is safe to show to a user: it never contains a URL (so no credentials or query
/// string) nor any request header. A plain value: thread-safe.
public struct UpstreamError: Error, Sendable, Equatable, CustomStringConvertible {
    private enum Code: Sendable, Equatable {
        case timedOut, connectionFailed, connectionLost, bodyTooLarge, protocolNotAllowed, invalidURL, cancelled, shutdown
        case tooManyRedirects, invalidRequest, offOrigin
        case httpStatus(Int)
        case invalidPage(String)
        case transferFailed(Int)
    }

    private let code: Code
    private init(_ code: Code) { self.code = code }

    /// The transfer took longer than the request's timeout.
    public static let timedOut = UpstreamError(.timedOut)
    /// The upstream could not be resolved or reached.
    public static let connectionFailed = UpstreamError(.connectionFailed)
    /// The connection broke before the answer was complete: reset, closed early, or a body cut short
    /// (e.g. a chunked body without its last chunk).
    public static let connectionLost = UpstreamError(.connectionLost)
    /// The body was larger than ``UpstreamClientConfiguration/maxBodyBytes``.
    public static let bodyTooLarge = UpstreamError(.bodyTooLarge)
    /// The URL, or a redirect, used a scheme other than `http` or `https`.
    public static let protocolNotAllowed = UpstreamError(.protocolNotAllowed)
    /// The URL could not be parsed.
    public static let invalidURL = UpstreamError(.invalidURL)
    /// The calling task was cancelled; the transfer was aborted.
    public static let cancelled = UpstreamError(.cancelled)
    /// The client was shut down before the transfer finished.
    public static let shutdown = UpstreamError(.shutdown)
    /// More redirects than ``UpstreamClientConfiguration/maxRedirects``.
    public static let tooManyRedirects = UpstreamError(.tooManyRedirects)
    /// The method or a header name is not an HTTP token, or a header value contains CR, LF or NUL.
    public static let invalidRequest = UpstreamError(.invalidRequest)

    /// A redirect or a next-page link pointed outside the configured upstream origin; it was not followed.
    public static let offOrigin = UpstreamError(.offOrigin)

    /// The upstream answered with a non-2xx status.
    public static func httpStatus(_ code: Int) -> UpstreamError { UpstreamError(.httpStatus(code)) }
    /// The body was not what the pagination expects. `why` should not contain secrets.
    public static func invalidPage(_ why: String) -> UpstreamError { UpstreamError(.invalidPage(why)) }
    /// Any other libcurl failure, by its `CURLcode` number.
    public static func transferFailed(curlCode: Int) -> UpstreamError { UpstreamError(.transferFailed(curlCode)) }

    /// Whether trying again later may succeed: timeouts, connection failures and losses, 408, 429 and 5xx.
    public var isRetryable: Bool {
        switch code {
        case .timedOut, .connectionFailed, .connectionLost: return true
        case .httpStatus(let status): return status == 408 || status == 429 || (500..<600).contains(status)
        case .transferFailed: return true
        default: return false
        }
    }

    /// The HTTP status, if this is ``httpStatus(_:)``.
    public var httpStatusCode: Int? {
        if case .httpStatus(let status) = code { return status }
        return nil
    }

    /// A short sentence safe to show to a user (no URL, no header).
    public var description: String {
        switch code {
        case .timedOut: return "the upstream did not answer in time"
        case .connectionFailed: return "could not connect to the upstream"
        case .connectionLost: return "the connection to the upstream broke before its answer was complete"
        case .bodyTooLarge: return "the upstream's answer was too large"
        case .protocolNotAllowed: return "only http and https upstream URLs are allowed"
        case .invalidURL: return "the upstream URL is not valid"
        case .cancelled: return "the upstream request was cancelled"
        case .shutdown: return "the upstream client is shutting down"
        case .tooManyRedirects: return "the upstream redirected too many times"
        case .invalidRequest: return "the request method or a request header is not valid"
        case .offOrigin: return "the upstream pointed to another host; the link was not followed"
        case .httpStatus(let status): return "the upstream answered HTTP \(status)"
        case .invalidPage(let why): return "the upstream's page is not valid: \(why)"
        case .transferFailed(let curlCode): return "the upstream transfer failed (curl error \(curlCode))"
        }
    }
}
