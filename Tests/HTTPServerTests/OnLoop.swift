import Dispatch
import EventLoop
import Locking
import TestSupport
@testable import HTTPServer

/// Runs `work` as one job (one pass) on `loop` and returns its result, waiting at most 30 s (scaled). Blocks the
/// caller: call it off the cooperative pool (`offPool`) or from a test that may block.
@discardableResult
func onLoop<T: Sendable>(_ loop: EventLoop, _ work: @escaping @Sendable () -> T) throws -> T {
    let done = DispatchSemaphore(value: 0)
    let result = ResultBox<T>()
    loop.execute {
        result.value.withLock { $0 = work() }
        done.signal()
    }
    guard done.wait(timeout: .now() + .seconds(30 * TestTime.scale)) == .success,
          let value = result.value.withLock({ $0 }) else {
        throw TestConnection.Failure(description: "the loop did not run the job")
    }
    return value
}

/// ``onLoop(_:_:)`` on the loop of `writer`'s connection.
@discardableResult
func onLoop<T: Sendable>(of writer: StreamWriter, _ work: @escaping @Sendable () -> T) throws -> T {
    guard case .connection(_, let loop) = writer.target else { throw TestConnection.Failure(description: "no loop") }
    return try onLoop(loop, work)
}

/// A job's result, handed from the loop to the test's thread. Thread-safe (a lock).
private final class ResultBox<T: Sendable>: Sendable {
    let value = Lock<T?>(nil)
}
