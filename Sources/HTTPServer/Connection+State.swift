import Foundation

/// A connection's lifecycle as a value (``Connection/state``), its deadlines without payload (``Connection/timing``,
/// what the sweep reads) and its case alone (``Connection/phase``, what every write reads).
///
/// Thread rules: the enums are values; the properties are loop-confined like the rest of ``Connection``.
extension Connection {
    enum State {
        case idle
        case waiting(Pending)
        case streaming(StreamWriter, heartbeatDue: MonotonicInstant?)
        case closed
    }

    /// The deadlines of a `State`, without its payload (``timing``). Trivially copyable.
    enum Timing {
        case idle
        case waiting(deadline: MonotonicInstant)
        case streaming(heartbeatDue: MonotonicInstant?)
        case closed

        init(_ state: State) {
            switch state {
            case .idle: self = .idle
            case .waiting(let pending): self = .waiting(deadline: pending.deadline)
            case .streaming(_, let due): self = .streaming(heartbeatDue: due)
            case .closed: self = .closed
            }
        }
    }

    /// `State`'s cases alone (``phase``). Thread-safe: a value type.
    enum Phase {
        case idle, waiting, streaming, closed
    }

    /// A `.later` answer being produced. `id` tells its completion from a later request's (after a timeout).
    struct Pending {
        let id: UInt64
        let task: Task<Void, Never>
        let deadline: MonotonicInstant
        let head: Bool
        let version: HTTPVersion
    }

    /// `state`'s case alone, read from `timing` (no payload copied): what every write and check reads, since
    /// matching `state` itself copies it (a retain and release of its writer or task per connection per event).
    var phase: Phase {
        switch timing {
        case .idle: .idle
        case .waiting: .waiting
        case .streaming: .streaming
        case .closed: .closed
        }
    }

    var isClosed: Bool { phase == .closed }
    var isIdle: Bool { phase == .idle }
}
