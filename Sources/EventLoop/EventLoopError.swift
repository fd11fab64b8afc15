import Foundation

/// A failed system call of an event loop (`epoll_create1`, `eventfd`, `epoll_ctl`), with its errno, e.g.
/// `epoll_ctl(ADD): Bad file descriptor`. Thread-safe: a value type.
package struct EventLoopError: Error, Sendable, CustomStringConvertible {
    /// The failing call.
    package let call: String
    /// The errno value it left.
    package let errnoCode: Int32

    /// A failure of `call` described by the current `errno`.
    static func system(_ call: String) -> EventLoopError {
        EventLoopError(call: call, errnoCode: errno)
    }

    package var description: String { "\(call): \(String(cString: strerror(errnoCode)))" }
}
