import CSystem
import EventLoop
import Foundation

/// The listening socket's handler, on loop 0. Accepts until `EAGAIN` and spreads connections round-robin over
/// all loops (loop 0 accepts and hands off through `execute`; one listening socket per process: `reusePort` only
/// shares the port with other processes).
/// Every accepted socket passes `ConnectionAdmission` first: past a cap it gets a fixed 503 and is closed.
///
/// Thread rules: loop-confined to loop 0. Ownership: owns the listening fd and a spare fd; `close()` closes both.
final class Listener: EventHandler, @unchecked Sendable {
    let fd: Int32
    private let loops: [ServerLoop]
    private var next = 0
    private var isOpen = true
    /// Held open so that, when the process runs out of descriptors (EMFILE), one can be freed to accept and
    /// refuse the waiting client; otherwise level-triggered epoll would report the listener ready forever.
    private var spare: Int32 = Listener.openSpare()

    init(fd: Int32, loops: [ServerLoop], drainWindow: Duration = .milliseconds(250), arrivals: ArrivalRate = ArrivalRate()) {
        self.fd = fd
        self.loops = loops
        self.drainWindow = drainWindow
        self.arrivals = arrivals
    }

    private var context: ServerContext { loops[0].context }

    /// When the last connection was accepted: until ``drainWindow`` after it, the listener is drained again at the
    /// end of every pass (``drainEachPass()``).
    private var lastArrival: ContinuousClock.Instant?
    /// How long after the last arrival the listener is drained every pass.
    let drainWindow: Duration

    /// How fast connections arrive (``arrivalsAreAStorm()``).
    private var arrivals: ArrivalRate

    func handleEvents(_ events: UInt32) {
        loops[0].loop.assertInLoop()
        let accepted = acceptPending()
        if accepted > 0 { noteArrivals(accepted, at: .now) }
    }

    /// Whether connections arrive as a storm now (``ArrivalRate``): then loop 0 pauses before its next wait
    /// (``HTTPServerConfiguration/arrivalPause``). - Important: loop-confined to loop 0.
    func arrivalsAreAStorm() -> Bool {
        loops[0].loop.assertInLoop()
        return arrivals.mayBeStorm && arrivals.isStorm(at: .now)
    }

    /// Makes loop 0 pause before each wait that would block while connections arrive as a storm
    /// (``HTTPServerConfiguration/arrivalPause``; zero: never), and count each pause taken. The loop clears its hooks
    /// when it stops. Returns whether it did (not for a zero pause). - Important: loop-confined to loop 0; call once.
    @discardableResult
    func pauseLoopDuringStorms() -> Bool {
        let loop = loops[0].loop
        loop.assertInLoop()
        let pause = context.configuration.arrivalPause
        guard pause > .zero else { return false }
        let counters = context.counters
        loop.pause = { duration in
            counters.arrivalPauses.add(1, ordering: .relaxed)
            EventLoop.sleep(duration)
        }
        loop.addIterationEndHook { if self.arrivalsAreAStorm() { loop.pauseBeforeNextWait(pause) } }
        return true
    }

    /// Notes a round of accepts that took `count` connections: the arrivals that found another waiting (all but the
    /// first) count towards a storm (``ArrivalRate``).
    private func noteArrivals(_ count: Int, at now: ContinuousClock.Instant) {
        lastArrival = now
        arrivals.record(count - 1, at: now)
    }

    /// Run at the end of each pass of loop 0: within ``drainWindow`` of the last arrival (a storm of arrivals), accepts
    /// again, so the listener is drained every pass. epoll reports at most 256 ready descriptors a pass, and a
    /// level-triggered listener that is ready again goes behind every other ready descriptor: among thousands of
    /// readable connections it came round only every dozen passes; meanwhile the backlog (4096) filled, and the kernel
    /// dropped the handshakes past it, which their clients retried a second later. A drain that finds none costs one
    /// `accept4` answering `EAGAIN`; past the window the listener waits for its epoll event again.
    /// Returns whether it is within the window (connections are arriving).
    @discardableResult
    func drainEachPass() -> Bool {
        guard let last = lastArrival else { return false }
        let now = ContinuousClock.now
        guard now - last < drainWindow else {
            lastArrival = nil
            return false
        }
        let accepted = acceptPending()
        if accepted > 0 { noteArrivals(accepted, at: now) }
        return true
    }

    /// Accepts until `EAGAIN`; returns how many were accepted (refused ones too).
    private func acceptPending() -> Int {
        var count = 0
        while isOpen {
            var address: UInt32 = 0
            let accepted = csystem_accept_peer(fd, &address)
            guard accepted >= 0 else {
                // EAGAIN: drained. Per-connection errors (ECONNABORTED...) are skipped; out of descriptors:
                // refuse one client with the spare fd; other errors stop this round.
                if errno == ECONNABORTED || errno == EINTR || errno == EPROTO { continue }
                if errno == EMFILE || errno == ENFILE { refuseWithSpare() }
                return count
            }
            count += 1
            guard context.admission.admit(address) else {
                refuse(accepted)
                continue
            }
            let target = loops[next % loops.count]
            next &+= 1
            if target.loop.inEventLoop {
                target.adopt(accepted, address: address)
            } else {
                let peer = address
                target.loop.execute { target.adopt(accepted, address: peer) }
            }
        }
        return count
    }

    /// Best-effort 503 (never blocks: the socket is non-blocking), then close.
    private func refuse(_ accepted: Int32) {
        context.counters.refusedConnections.add(1, ordering: .relaxed)
        _ = context.refusal.withUnsafeBytes {
            Glibc.send(accepted, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
        }
        Glibc.close(accepted)
    }

    private func refuseWithSpare() {
        guard spare >= 0 else { return }
        Glibc.close(spare)
        var address: UInt32 = 0
        let accepted = csystem_accept_peer(fd, &address)
        if accepted >= 0 { refuse(accepted) }
        spare = Self.openSpare()
    }

    private static func openSpare() -> Int32 { open("/dev/null", O_RDONLY | O_CLOEXEC) }

    /// Stops accepting and closes the listening fd. Idempotent. - Important: loop-confined.
    func close() {
        loops[0].loop.assertInLoop()
        guard isOpen else { return }
        isOpen = false
        loops[0].loop.deregister(fd)
        Glibc.close(fd)
        if spare >= 0 { Glibc.close(spare) }
        spare = -1
    }
}
