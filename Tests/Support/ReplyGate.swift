import Foundation
import Synchronization

/// Fixture replies the test holds back and lets go itself (`FixtureReply.held`), instead of racing a clock: a test
/// of coalescing holds the one fetch until every viewer waits on it, a test of a cap holds replies until the cap is
/// full. A held reply sends nothing: give the client under test a low-speed limit longer than any hold
/// (`lowSpeedSeconds`), or a slow run turns the hold into a timeout. Thread-safe (one `Mutex`).
public final class ReplyGate: Sendable {
    private struct State {
        var releases = 0
        var waiting = 0
    }

    private let state = Mutex(State())

    public init() {}

    /// Replies held right now, waiting for a release.
    public var waiting: Int { state.withLock { $0.waiting } }

    /// Lets `count` held replies go: ones waiting now, or the next ones to arrive.
    public func release(_ count: Int = 1) {
        state.withLock { $0.releases += count }
    }

    /// Lets every held reply go, now and later.
    public func releaseAll() {
        state.withLock { $0.releases = Int.max / 2 }
    }

    /// Blocks the fixture's connection thread until a release is taken (true) or `stopped` (false), polling.
    func waitForRelease(unless stopped: () -> Bool) -> Bool {
        state.withLock { $0.waiting += 1 }
        defer { state.withLock { $0.waiting -= 1 } }
        while !stopped() {
            let taken = state.withLock { state -> Bool in
                guard state.releases > 0 else { return false }
                state.releases -= 1
                return true
            }
            if taken { return true }
            usleep(2_000)
        }
        return false
    }
}
