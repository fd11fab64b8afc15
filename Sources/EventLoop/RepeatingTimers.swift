/// An event loop's repeating timers: what is due, and how long `epoll_wait` may sleep before the next one.
///
/// Thread rules: a value owned by one loop; used on its thread only.
struct RepeatingTimers {
    private struct Timer {
        var due: ContinuousClock.Instant
        let interval: Duration
        let body: () -> Void
    }

    private var timers: [Timer] = []

    /// Adds a timer calling `body` every `interval`, first one interval from `now`.
    mutating func add(every interval: Duration, now: ContinuousClock.Instant = .now, _ body: @escaping () -> Void) {
        timers.append(Timer(due: now + interval, interval: interval, body: body))
    }

    /// The bodies of the timers due at `now`, each set due one interval later. The loop calls them after this
    /// returns, so a body may add a timer.
    mutating func takeDue(now: ContinuousClock.Instant = .now) -> [() -> Void] {
        var due: [() -> Void] = []
        for index in timers.indices where timers[index].due <= now {
            timers[index].due = now + timers[index].interval
            due.append(timers[index].body)
        }
        return due
    }

    /// The `epoll_wait` timeout until the next timer is due: -1 (none: wait for an event), 0 (one is due), or the
    /// milliseconds left plus one (an `epoll_wait` never returns before the timer is due).
    func timeoutMilliseconds(now: ContinuousClock.Instant = .now) -> Int32 {
        // Read in place: mapping to an array of instants allocated one every loop iteration.
        guard let next = timers.lazy.map(\.due).min() else { return -1 }
        let wait = now.duration(to: next)
        if wait <= .zero { return 0 }
        let (seconds, attoseconds) = wait.components
        return Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
    }

    /// Drops every timer (the loop stopped).
    mutating func removeAll() { timers = [] }
}
