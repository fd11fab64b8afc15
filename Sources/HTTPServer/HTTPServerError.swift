import Foundation

/// A server start-up failure, naming the failing call and the errno text, e.g. `bind: Address already in use`.
/// Thread-safe: a value type.
public struct HTTPServerError: Error, Sendable, CustomStringConvertible {
    /// The failing call (`socket`, `bind`, `listen`, `epoll_create1`...).
    public let call: String
    /// The errno value (0 when not an errno failure).
    public let errnoCode: Int32
    /// Extra detail.
    public let detail: String

    public init(call: String, errnoCode: Int32, detail: String = "") {
        self.call = call
        self.errnoCode = errnoCode
        self.detail = detail
    }

    /// A failure of `call` described by the current `errno`.
    static func system(_ call: String) -> HTTPServerError {
        HTTPServerError(call: call, errnoCode: errno)
    }

    public var description: String {
        let reason = errnoCode != 0 ? String(cString: strerror(errnoCode)) : detail
        return detail.isEmpty || errnoCode == 0 ? "\(call): \(reason)" : "\(call): \(reason) (\(detail))"
    }
}
