import Foundation
import Locking

/// Replies the test holds back and lets go itself, instead of racing a clock: a test of coalescing holds the one
/// fetch until every viewer waits on it, a test of a cap holds replies until the cap is full. The one gate every
/// test uses: a fixture server's reply (`FixtureReply.held`) and a code-defined source's fetch (`pass()`) alike.
/// A held reply sends nothing: give the client under test a low-speed limit longer than any hold
/// (`lowSpeedSeconds`), or a slow run turns the hold into a timeout. Thread-safe (one `Lock`).
public final class ReplyGate: Sendable {
    private struct State {
        var releases = 0
        var arrived = 0
        var waiting = 0
        var maxWaiting = 0
        var cancelled = 0
    }

    private let state = Lock(State())

    public init() {}

    /// Replies held right now, waiting for a release.
    public var waiting: Int { state.withLock { $0.waiting } }
    /// Replies that have come to the gate so far (held, released or cancelled).
    public var arrived: Int { state.withLock { $0.arrived } }
    /// The most replies at the gate at one time (a reply counts from its arrival until it passes or gives up).
    public var maxWaiting: Int { state.withLock { $0.maxWaiting } }
    /// `pass()` calls whose task was cancelled before a release reached them.
    public var cancelled: Int { state.withLock { $0.cancelled } }

    /// Lets `count` held replies go: ones waiting now, or the next ones to arrive.
    public func release(_ count: Int = 1) {
        state.withLock { $0.releases += count }
    }

    /// Lets every reply held now go (none banked for later arrivals beyond those).
    public func releaseHeld() {
        state.withLock { $0.releases = max($0.releases, $0.waiting) }
    }

    /// Lets every held reply go, now and later.
    public func releaseAll() {
        state.withLock { $0.releases = Int.max / 2 }
    }

    /// Waits until a release is taken (true) or the calling task is cancelled (false, counted in `cancelled`),
    /// polling every 2 ms. For a code-defined source: `guard await gate.pass() else { throw CancellationError() }`.
    public func pass() async -> Bool {
        arrive()
        defer { leave() }
        while !Task.isCancelled {
            if takeRelease() { return true }
            try? await Task.sleep(for: .milliseconds(2))
        }
        state.withLock { $0.cancelled += 1 }
        return false
    }

    /// Blocks the fixture's connection thread until a release is taken (true) or `stopped` (false), polling.
    func waitForRelease(unless stopped: () -> Bool) -> Bool {
        arrive()
        defer { leave() }
        while !stopped() {
            if takeRelease() { return true }
            usleep(2_000)
        }
        return false
    }

    private func arrive() {
        state.withLock {
            $0.arrived += 1
            $0.waiting += 1
            $0.maxWaiting = max($0.maxWaiting, $0.waiting)
        }
    }

    private func leave() {
        state.withLock { $0.waiting -= 1 }
    }

    private func takeRelease() -> Bool {
        state.withLock { state -> Bool in
            guard state.releases > 0 else { return false }
            state.releases -= 1
            return true
        }
    }
}
