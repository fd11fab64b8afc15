import EventLoop

/// How many connections arrive together, counted in fixed windows of time: tells a storm of arrivals (a dashboard link
/// posted to a whole company, every tab reconnecting after a deploy) from a trickle or from one client's requests one
/// after another.
///
/// What is counted is up to the caller: loop 0's ``Listener`` counts the arrivals that found another connection waiting
/// (all but the first of each round of accepts), so a client that connects again only once it has its answer (a
/// script, a prober, `Scripts/bench ttfr`), however fast, never makes a storm: pausing could not batch its arrivals,
/// only delay them.
///
/// While arrivals are a storm, loop 0 pauses briefly before each wait that would block
/// (``HTTPServerConfiguration/arrivalPause``). Without the pause, the loop is faster than the clients: it takes the one
/// or two connections that arrived, answers them and sleeps, and the next arrival wakes it again (about one wake-up for
/// every two viewers in `Scripts/bench storm`, each a context switch and an `epoll_wait`). With it, the loop takes a
/// pause's arrivals together: one wake-up, one batch of accepts and reads, and their first batches in one io_uring
/// submission.
///
/// Thread rules: a value type; loop 0's ``Listener`` holds it (loop-confined there).
struct ArrivalRate: Sendable {
    /// How long one window is.
    let window: Duration
    /// How many arrivals within one window make a storm.
    let threshold: Int
    /// Where the window being counted began; nil before the first arrival.
    private var windowStart: ContinuousClock.Instant?
    /// Arrivals in the window being counted, and in the window just before it.
    private var current = 0
    private var previous = 0

    /// A storm by default is 20 counted arrivals in 10 ms: 2,000 a second that found another waiting, so well over 2
    /// arrivals per 500 µs pause, and a pause replaces more wake-ups than it costs.
    init(window: Duration = .milliseconds(10), threshold: Int = 20) {
        precondition(window >= .nanoseconds(1) && threshold > 0, "an arrival rate needs a window and a threshold")
        self.window = window
        self.threshold = threshold
    }

    /// Counts `count` arrivals at `now` (instants given in order).
    mutating func record(_ count: Int, at now: ContinuousClock.Instant) {
        advance(to: now)
        current += count
    }

    /// Whether arrivals are a storm at `now`: the window holding `now`, or the one just before it, had ``threshold``
    /// arrivals or more. So a storm ends one to two windows after its arrivals slow down.
    func isStorm(at now: ContinuousClock.Instant) -> Bool {
        guard mayBeStorm, let start = windowStart else { return false }
        switch windowsPassed(since: start, until: now) {
        case 0: return current >= threshold || previous >= threshold
        case 1: return current >= threshold
        default: return false
        }
    }

    /// Whether the counted windows reach the threshold at all: false tells, with no clock read, that it is no storm
    /// (``Listener`` asks after every pass of its loop).
    var mayBeStorm: Bool { current >= threshold || previous >= threshold }

    /// Moves the count to the window holding `now` (windows are aligned to the first arrival's).
    private mutating func advance(to now: ContinuousClock.Instant) {
        guard let start = windowStart else {
            windowStart = now
            return
        }
        let passed = windowsPassed(since: start, until: now)
        guard passed > 0 else { return }
        // The window just before now's is the one that was being counted only if exactly one window passed.
        previous = passed == 1 ? current : 0
        current = 0
        windowStart = start + window * passed
    }

    /// Whole windows from `start` to `now` (0 while `now` is in the window that began at `start`).
    private func windowsPassed(since start: ContinuousClock.Instant, until now: ContinuousClock.Instant) -> Int {
        guard now >= start + window else { return 0 }
        return Int((now - start).wholeNanoseconds / window.wholeNanoseconds)  // whole numbers: exact at any distance
    }
}
