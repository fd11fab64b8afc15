import Locking
import Synchronization
@testable import Batches

/// Records events and notices if two deliveries ever overlap. Thread-safe.
final class EventRecorder<Item: Sendable, Token: Sendable>: Sendable {
    typealias Event = BatchesEvent<Item, Token>

    private let recorded = Lock<[Event]>([])
    private let inside = Atomic<Int>(0)
    private let overlaps = Atomic<Int>(0)
    /// Runs after each event is recorded (outside the recorder's lock), e.g. to call back in.
    private let after: @Sendable (Event) -> Void

    init(after: @escaping @Sendable (Event) -> Void = { _ in }) {
        self.after = after
    }

    /// The `onEvent` closure to hand the data source.
    var onEvent: @Sendable (Event) -> Void {
        { [self] event in self.record(event) }
    }

    var events: [Event] { recorded.withLock { $0 } }

    /// How many times a delivery started while another was still running (must stay 0).
    var overlapCount: Int { overlaps.load(ordering: .relaxed) }

    private func record(_ event: Event) {
        if inside.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue > 1 {
            overlaps.wrappingAdd(1, ordering: .relaxed)
        }
        recorded.withLock { $0.append(event) }
        after(event)
        inside.wrappingSubtract(1, ordering: .acquiringAndReleasing)
    }
}
