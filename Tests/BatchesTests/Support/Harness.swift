import TestSupport
import Testing
@testable import Batches

/// A data source over a ``FakeLoader`` with String cursors, a ``ManualClock`` and an ``EventRecorder``.
struct Harness {
    typealias Event = BatchesEvent<Int, String>

    let loader = FakeLoader<String>()
    let clock = ManualClock()
    let recorder: EventRecorder<Int, String>
    let source: BatchesDataSource<Int, String>

    init(start: (token: String, offset: Int)? = nil, loadTimeout: Duration = .seconds(30),
         recorder: EventRecorder<Int, String> = EventRecorder()) {
        self.recorder = recorder
        source = BatchesDataSource(
            initialToken: "a", start: start, loadTimeout: loadTimeout, clock: clock,
            loader: loader.loader, onEvent: recorder.onEvent)
    }

    var events: [Event] { recorder.events }

    /// Waits until the loader has been called `count` times in all.
    func waitForCalls(_ count: Int) async throws {
        try #require(await eventually { loader.tokens.count >= count }, "\(count) loader calls")
    }

    /// Waits until `count` events have been delivered in all.
    func waitForEvents(_ count: Int) async throws {
        try #require(await eventually { recorder.events.count >= count }, "\(count) events")
    }

    /// Waits until `count` stale outcomes have been discarded in all.
    func waitForDiscarded(_ count: Int) async throws {
        try #require(await eventually { source.discardedOutcomeCount >= count }, "\(count) discarded outcomes")
    }
}

/// A loader error that is not a `LoadFailure`.
struct UpstreamDown: Error, CustomStringConvertible {
    var description: String { "upstream down" }
}
