import RowstreamKit
import Synchronization

/// One log line at most every `every`: for what a hostile or broken store may make happen on every request.
///
/// Thread-safe: the last line's time is atomic.
final class RateLimitedLog: Sendable {
    private let logger: any RowstreamLogger
    private let every: Duration
    /// Nanoseconds since `start` of the last line logged, or -1.
    private let last = Atomic<Int64>(-1)
    private let start = ContinuousClock.now

    init(logger: any RowstreamLogger, every: Duration) {
        self.logger = logger
        self.every = every
    }

    /// Logs `message` unless a line was logged less than `every` ago.
    func log(_ level: RowstreamLogLevel, _ message: String) {
        let now = Self.nanoseconds(ContinuousClock.now - start)
        let previous = last.load(ordering: .relaxed)
        guard previous < 0 || now - previous >= Self.nanoseconds(every),
              last.compareExchange(expected: previous, desired: now, ordering: .relaxed).exchanged
        else { return }
        logger.log(level, message)
    }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
    }
}
