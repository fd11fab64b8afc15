/// An HTTP status code and reason phrase ([RFC 9110 §15](https://www.rfc-editor.org/rfc/rfc9110#section-15)).
///
/// Thread-safe: an immutable value.
public struct HTTPStatus: Hashable, Sendable, CustomStringConvertible {
    /// The three-digit code.
    public let code: Int
    /// The reason phrase written on the status line.
    public let reason: String

    /// Creates a status. `code` must be 100...999 (a programmer error otherwise).
    public init(code: Int, reason: String) {
        precondition((100...999).contains(code), "HTTP status code out of range: \(code)")
        self.code = code
        self.reason = reason
    }

    public var description: String { "\(code) \(reason)" }

    /// 200 (RFC 9110 §15.3.1).
    public static let ok = HTTPStatus(code: 200, reason: "OK")
    /// 202 (RFC 9110 §15.3.3).
    public static let accepted = HTTPStatus(code: 202, reason: "Accepted")
    /// 204 (RFC 9110 §15.3.5).
    public static let noContent = HTTPStatus(code: 204, reason: "No Content")
    /// 303 (RFC 9110 §15.4.4); send `Location`.
    public static let seeOther = HTTPStatus(code: 303, reason: "See Other")
    /// 304 (RFC 9110 §15.4.5).
    public static let notModified = HTTPStatus(code: 304, reason: "Not Modified")
    /// 400 (RFC 9110 §15.5.1).
    public static let badRequest = HTTPStatus(code: 400, reason: "Bad Request")
    /// 401 (RFC 9110 §15.5.2); send `WWW-Authenticate`.
    public static let unauthorized = HTTPStatus(code: 401, reason: "Unauthorized")
    /// 403 (RFC 9110 §15.5.4).
    public static let forbidden = HTTPStatus(code: 403, reason: "Forbidden")
    /// 404 (RFC 9110 §15.5.5).
    public static let notFound = HTTPStatus(code: 404, reason: "Not Found")
    /// 405 (RFC 9110 §15.5.6); send `Allow`.
    public static let methodNotAllowed = HTTPStatus(code: 405, reason: "Method Not Allowed")
    /// 408 (RFC 9110 §15.5.9).
    public static let requestTimeout = HTTPStatus(code: 408, reason: "Request Timeout")
    /// 411 (RFC 9110 §15.5.12).
    public static let lengthRequired = HTTPStatus(code: 411, reason: "Length Required")
    /// 412 (RFC 9110 §15.5.13).
    public static let preconditionFailed = HTTPStatus(code: 412, reason: "Precondition Failed")
    /// 413 (RFC 9110 §15.5.14).
    public static let payloadTooLarge = HTTPStatus(code: 413, reason: "Content Too Large")
    /// 414 (RFC 9110 §15.5.15).
    public static let uriTooLong = HTTPStatus(code: 414, reason: "URI Too Long")
    /// 429 (RFC 6585 §4).
    public static let tooManyRequests = HTTPStatus(code: 429, reason: "Too Many Requests")
    /// 431 (RFC 6585 §5).
    public static let headerFieldsTooLarge = HTTPStatus(code: 431, reason: "Request Header Fields Too Large")
    /// 500 (RFC 9110 §15.6.1).
    public static let internalServerError = HTTPStatus(code: 500, reason: "Internal Server Error")
    /// 501 (RFC 9110 §15.6.2).
    public static let notImplemented = HTTPStatus(code: 501, reason: "Not Implemented")
    /// 502 (RFC 9110 §15.6.3).
    public static let badGateway = HTTPStatus(code: 502, reason: "Bad Gateway")
    /// 503 (RFC 9110 §15.6.4).
    public static let serviceUnavailable = HTTPStatus(code: 503, reason: "Service Unavailable")
    /// 504 (RFC 9110 §15.6.5).
    public static let gatewayTimeout = HTTPStatus(code: 504, reason: "Gateway Timeout")
    /// 505 (RFC 9110 §15.6.6).
    public static let httpVersionNotSupported = HTTPStatus(code: 505, reason: "HTTP Version Not Supported")

    /// Whether a response with this status never carries a body (1xx, 204, 304).
    package var forbidsBody: Bool { code < 200 || code == 204 || code == 304 }
}
