import Locking

/// Where the fetches this instance waits for (a lease another instance holds) learn that their page landed: a
/// ``SharedPageStore`` signals it for each landing notice it receives, and signals everyone when its connection
/// drops or comes back (they look again instead of waiting out the lease).
///
/// Waiting is bounded: a ``LandingTicket`` is taken (``expect(_:)``) before the waiter looks in the store once more,
/// so a landing between that look and the wait is not missed; the wait then ends at the landing or at its limit,
/// whichever comes first. No polling.
///
/// Thread-safe: one `Lock` over the tickets; continuations are resumed outside it.
public final class LandingBoard: Sendable {
    private struct State {
        var tickets: [String: [ObjectIdentifier: LandingTicket]] = [:]
    }

    private let state = Lock(State())

    public init() {}

    /// A ticket for the next landing of `key`; give it back with ``forget(_:)`` once done with it.
    public func expect(_ key: String) -> LandingTicket {
        let ticket = LandingTicket(key: key)
        state.withLock { $0.tickets[key, default: [:]][ObjectIdentifier(ticket)] = ticket }
        return ticket
    }

    /// Drops `ticket` (waiting or not).
    public func forget(_ ticket: LandingTicket) {
        state.withLock { state in
            state.tickets[ticket.key]?[ObjectIdentifier(ticket)] = nil
            if state.tickets[ticket.key]?.isEmpty == true { state.tickets[ticket.key] = nil }
        }
    }

    /// Signals every ticket for `key`: its page landed (or its fetch was given up).
    public func land(_ key: String) {
        let tickets = state.withLock { $0.tickets.removeValue(forKey: key) ?? [:] }
        for ticket in tickets.values { ticket.signal(true) }
    }

    /// Signals every ticket: the store's connection changed, so each waiter should look again.
    public func landAll() {
        let tickets = state.withLock { state in
            defer { state.tickets = [:] }
            return state.tickets.values.flatMap(\.values)
        }
        for ticket in tickets { ticket.signal(true) }
    }

    /// Tickets not yet signalled or forgotten (for tests).
    public var waiting: Int { state.withLock { $0.tickets.values.reduce(0) { $0 + $1.count } } }
}

/// One waiter's ticket for one key's landing. Signalled at most once.
///
/// Thread-safe: the outcome and the continuation live in one `Lock`; whichever comes first (the landing or the
/// wait's limit) resumes the waiter, exactly once.
public final class LandingTicket: Sendable {
    let key: String
    private let state = Lock<(outcome: Bool?, continuation: CheckedContinuation<Bool, Never>?)>((nil, nil))

    init(key: String) {
        self.key = key
    }

    /// Waits until the landing or `limit`: true if it landed (or the board asked to look again), false if the
    /// limit came first.
    public func wait(within limit: Duration) async -> Bool {
        let timer = Task { [self] in
            try? await Task.sleep(for: limit)
            signal(false)
        }
        defer { timer.cancel() }
        return await withCheckedContinuation { continuation in
            let early = state.withLock { state -> Bool? in
                if state.outcome == nil { state.continuation = continuation }
                return state.outcome
            }
            if let early { continuation.resume(returning: early) }
        }
    }

    /// Delivers `landed` unless an outcome was delivered already.
    func signal(_ landed: Bool) {
        let continuation = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            guard state.outcome == nil else { return nil }
            state.outcome = landed
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume(returning: landed)
    }
}
