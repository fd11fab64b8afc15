import CSystem
import CURing
import EventLoop
import Glibc

/// One event loop's io_uring for socket sends: a broadcast's sends to the loop's connections are prepared one per
/// connection as the broadcast runs, and submitted together at the end of the loop's iteration (one system call for
/// a batch instead of one `send` each); their completions are reaped at once after, and whenever the ring's fd
/// (registered in the loop's epoll) says more are waiting.
///
/// Every send is `MSG_DONTWAIT`: the kernel does it at submission and completes it at once, with the count it took
/// (a partial send when the socket's buffer filled) or -EAGAIN; it never waits inside the kernel for room. The
/// connection then continues from where the send stopped through its own `sendmsg` path and EPOLLOUT, as before.
///
/// Buffers: a send's bytes are the front of its connection's `WriteBuffer`, which keeps them (unchanged: the queue
/// only appends) until the completion is reaped and `Connection.sendCompleted` consumes what was sent. The
/// connection itself is retained by the entry's `user_data` (an `Unmanaged` reference) until then, so a connection
/// closed meanwhile keeps its bytes alive. At most one send per connection is in flight (`Connection.sendInFlight`):
/// writes made meanwhile queue behind it, so a socket's bytes never go out of order.
///
/// Thread rules: loop-confined. Created, used and freed on `loop`'s thread only (each method checks
/// `assertInLoop()` in a debug build); liburing's rule is the same (one thread per ring). `@unchecked Sendable` only
/// because `EventHandler` requires it.
final class SendRing: EventHandler, @unchecked Sendable {
    private let ring: OpaquePointer
    let fd: Int32
    private unowned let loop: EventLoop
    /// Entries prepared and not yet submitted.
    private var prepared = 0
    /// Where submitted sends are counted (``HTTPServerStatistics/ioUringSends``).
    var counters: ServerCounters?
    /// Sends prepared or submitted whose completion is not reaped yet (each holds a retained connection).
    private(set) var inFlight = 0
    /// Entries in the submission queue by default (its completion queue is twice that, so one full batch always
    /// fits): a broadcast to more of a loop's connections submits each full queue as it goes.
    static let defaultEntries: UInt32 = 1024

    /// Whether sends go through io_uring, by default: no unless `ROWSTREAM_IO_URING` is `on` (opt-in until the
    /// review's open findings are fixed: docs/OPERATING.md).
    static var enabledByEnvironment: Bool {
        guard let value = getenv("ROWSTREAM_IO_URING") else { return false }
        return String(cString: value) == "on"
    }

    /// Makes a ring for `loop` and registers its fd there, or returns nil with the errno (the kernel has no
    /// io_uring: ENOSYS; it is refused by sysctl `kernel.io_uring_disabled` or seccomp: EPERM; ENOMEM), so the
    /// loop's connections keep the `sendmsg` path. - Important: loop-confined.
    static func make(on loop: EventLoop, entries: UInt32 = defaultEntries) -> Result<SendRing, SendRingRefusal> {
        loop.assertInLoop()
        var error: Int32 = 0
        guard let ring = curing_create(entries, &error) else { return .failure(SendRingRefusal(errnoCode: error)) }
        let sendRing = SendRing(ring: ring, loop: loop)
        do {
            try loop.register(sendRing.fd, sendRing, events: csystem_EPOLLIN)
        } catch {
            curing_destroy(ring)
            return .failure(SendRingRefusal(errnoCode: errno))
        }
        loop.addIterationEndHook { [sendRing] in sendRing.submitAndReap() }
        loop.addExitHook { [sendRing] in sendRing.drain() }
        return .success(sendRing)
    }

    private init(ring: OpaquePointer, loop: EventLoop) {
        self.ring = ring
        self.loop = loop
        fd = curing_fd(ring)
    }

    /// Prepares one send of `bytes` (which the caller keeps alive and unchanged until `connection.sendCompleted`
    /// runs) to `connection`'s socket; submitted at the end of this iteration, or now when the queue is full.
    /// Returns false when no entry could be had (the caller sends another way). - Important: loop-confined.
    func send(_ bytes: UnsafeRawBufferPointer, for connection: Connection) -> Bool {
        loop.assertInLoop()
        let unmanaged = Unmanaged.passRetained(connection)
        let tag = UInt64(UInt(bitPattern: unmanaged.toOpaque()))
        let length = UInt32(clamping: bytes.count)
        if curing_prepare_send(ring, connection.fd, bytes.baseAddress, length, tag) != 0 {
            submitAndReap()
            // A completion reaped just now may have closed this connection: its fd number is no longer its own.
            guard !connection.isClosed, curing_prepare_send(ring, connection.fd, bytes.baseAddress, length, tag) == 0 else {
                unmanaged.release()
                return false
            }
        }
        prepared += 1
        inFlight += 1
        return true
    }

    /// Submits what is prepared now: a connection about to close its fd calls this first, so the kernel takes its
    /// own reference to the socket before the number can be reused. - Important: loop-confined.
    func submitPrepared() {
        loop.assertInLoop()
        guard prepared > 0 else { return }
        let submitted = curing_submit(ring)
        guard submitted > 0 else { return }
        prepared -= min(prepared, Int(submitted))
        counters?.ioUringSends.add(Int(submitted), ordering: .relaxed)
    }

    /// Submits what is prepared and handles every completion waiting; repeats (bounded) while handling them
    /// prepared more (a written notice that wrote again). - Important: loop-confined.
    func submitAndReap() {
        loop.assertInLoop()
        for _ in 0..<8 {
            submitPrepared()
            reap()
            if prepared == 0 { return }
        }
    }

    func handleEvents(_ events: UInt32) {
        reap()
    }

    /// Hands every waiting completion to its connection. - Important: loop-confined.
    private func reap() {
        loop.assertInLoop()
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 256) { tags in
            withUnsafeTemporaryAllocation(of: Int32.self, capacity: 256) { results in
                while inFlight > 0 {
                    let count = Int(curing_reap(ring, tags.baseAddress, results.baseAddress, 256))
                    guard count > 0 else { return }
                    for index in 0..<count {
                        inFlight -= 1
                        guard let pointer = UnsafeRawPointer(bitPattern: UInt(tags[index])) else { continue }
                        Unmanaged<Connection>.fromOpaque(pointer).takeRetainedValue().sendCompleted(results[index])
                    }
                }
            }
        }
    }

    /// At the loop's exit: submits what is prepared, waits (at most about 2 s) for every send in flight, then frees
    /// the ring. Sends never wait inside the kernel (`MSG_DONTWAIT`), so this returns at once in practice; if one
    /// were still in flight at the end, the ring and its buffers are left allocated (a leak, never a use after
    /// free). - Important: loop-confined.
    private func drain() {
        loop.assertInLoop()
        submitAndReap()
        for _ in 0..<20 where inFlight > 0 {
            _ = curing_wait(ring, 100)
            submitAndReap()
        }
        guard inFlight == 0 else { return }
        curing_destroy(ring)
    }
}

/// Why a loop has no io_uring (its connections use `sendmsg`). Thread-safe: a value type.
struct SendRingRefusal: Error, Sendable {
    let errnoCode: Int32
}
