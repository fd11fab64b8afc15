/// An HTTP request method ([RFC 9110 §9](https://www.rfc-editor.org/rfc/rfc9110#section-9)).
///
/// Any token is representable (the parser accepts any valid method token); the common ones are static members.
/// Thread-safe: an immutable value.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The method token as sent, e.g. `"GET"`.
    public let rawValue: String

    /// Creates a method from its token. Case-sensitive, as HTTP methods are.
    public init(rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }

    /// `GET` (RFC 9110 §9.3.1).
    public static let get = HTTPMethod(rawValue: "GET")
    /// `HEAD` (RFC 9110 §9.3.2): as GET, headers only.
    public static let head = HTTPMethod(rawValue: "HEAD")
    /// `POST` (RFC 9110 §9.3.3).
    public static let post = HTTPMethod(rawValue: "POST")
    /// `PUT` (RFC 9110 §9.3.4).
    public static let put = HTTPMethod(rawValue: "PUT")
    /// `DELETE` (RFC 9110 §9.3.5).
    public static let delete = HTTPMethod(rawValue: "DELETE")
    /// `OPTIONS` (RFC 9110 §9.3.7).
    public static let options = HTTPMethod(rawValue: "OPTIONS")
    /// `PATCH` (RFC 5789).
    public static let patch = HTTPMethod(rawValue: "PATCH")
}
