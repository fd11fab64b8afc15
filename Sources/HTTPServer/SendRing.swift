import CSystem
import CURing
import EventLoop
import Glibc

/// One event loop's io_uring for socket sends: at the end of the loop's pass (``ServerLoop``'s end-of-pass flush) one
/// send is prepared per connection with bytes queued, covering every event the pass queued for it, and they are
/// submitted together (one system call for a batch instead of one `send` each); their completions are reaped at once
/// after (``submitAndReap()``, called by that flush), and whenever the ring's fd (in the loop's epoll) says more wait.
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
    /// Gathering sendmsg headers and vectors not in use, kept for the next (as many as sends were in flight at once).
    private var freeSlots: [SendSlot] = []
    /// Tests only: `submitPrepared` submits nothing, as when the kernel refuses a submit (EBUSY, ENOMEM).
    var refusesSubmits = false
    /// Where submitted sends are counted (``HTTPServerStatistics/ioUringSends``).
    var counters: ServerCounters?
    /// Sends prepared or submitted whose completion is not reaped yet (each holds a retained connection).
    private(set) var inFlight = 0
    /// Entries in the submission queue by default (its completion queue is twice that, so one full batch always
    /// fits): a broadcast to more of a loop's connections submits each full queue as it goes.
    static let defaultEntries: UInt32 = 1024

    /// Whether sends go through io_uring, by default: yes unless `ROWSTREAM_IO_URING` is `off` (where the kernel
    /// refuses a ring, a loop sends with `sendmsg` anyway: docs/OPERATING.md).
    static var enabledByEnvironment: Bool {
        enabled(environmentValue: getenv("ROWSTREAM_IO_URING").map { String(cString: $0) })
    }

    /// Whether `ROWSTREAM_IO_URING`'s value (nil: unset) leaves io_uring on: anything but `off`.
    static func enabled(environmentValue value: String?) -> Bool { value != "off" }

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
        loop.addExitHook { [sendRing] in sendRing.drain() }
        return .success(sendRing)
    }

    private init(ring: OpaquePointer, loop: EventLoop) {
        self.ring = ring
        self.loop = loop
        fd = curing_fd(ring)
    }

    /// Prepares one send of `connection`'s queued bytes, up to ``WriteBuffer/maxVectors`` arrays (one array: a plain
    /// send; more: one gathering sendmsg, whose header and vectors this ring keeps in a slot until the completion), to
    /// be submitted with the loop's other sends at the end of its pass, or now when the queue is full. The bytes stay
    /// queued, unchanged (the queue only appends), until `connection.sendCompleted` consumes what the kernel took.
    /// The caller has set `connection.sendInFlight`. Returns false when no entry could be had (the caller sends
    /// another way). - Important: loop-confined.
    func sendQueued(of connection: Connection) -> Bool {
        loop.assertInLoop()
        let slot = freeSlots.popLast() ?? SendSlot()
        let count = connection.output.fillVectors(slot.vectors)
        guard count > 0 else {
            freeSlots.append(slot)
            return false
        }
        slot.message.pointee = msghdr()
        slot.message.pointee.msg_iov = slot.vectors.baseAddress
        slot.message.pointee.msg_iovlen = count
        let unmanaged = Unmanaged.passRetained(connection)
        let tag = UInt64(UInt(bitPattern: unmanaged.toOpaque()))
        if !prepare(slot, count: count, fd: connection.fd, tag: tag) {
            submitAndReap()
            // A completion reaped just now may have closed this connection: its fd number is no longer its own.
            guard !connection.isClosed, prepare(slot, count: count, fd: connection.fd, tag: tag) else {
                unmanaged.release()
                freeSlots.append(slot)
                return false
            }
        }
        if count == 1 {
            freeSlots.append(slot)  // a plain send: the kernel reads no header or vector later
        } else {
            connection.ringSlot = slot
        }
        prepared += 1
        inFlight += 1
        return true
    }

    private func prepare(_ slot: SendSlot, count: Int, fd: Int32, tag: UInt64) -> Bool {
        if count == 1 {
            let vector = slot.vectors[0]
            return curing_prepare_send(ring, fd, vector.iov_base, UInt32(clamping: vector.iov_len), tag) == 0
        }
        return curing_prepare_sendmsg(ring, fd, slot.message, tag) == 0
    }

    /// Submits what is prepared now: a connection about to close its fd calls this first, so the kernel takes its
    /// own reference to the socket before the number can be reused. - Important: loop-confined.
    func submitPrepared() {
        loop.assertInLoop()
        guard prepared > 0, !refusesSubmits else { return }
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
                        let connection = Unmanaged<Connection>.fromOpaque(pointer).takeRetainedValue()
                        if let slot = connection.ringSlot {
                            connection.ringSlot = nil
                            freeSlots.append(slot)
                        }
                        connection.sendCompleted(results[index])
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
        for slot in freeSlots { slot.deallocate() }
        freeSlots = []
    }
}

/// One gathering sendmsg's header and vectors, kept by a ``SendRing`` while the kernel may read them. Thread rules:
/// confined to the ring's loop like the ring.
struct SendSlot: @unchecked Sendable {
    let message = UnsafeMutablePointer<msghdr>.allocate(capacity: 1)
    let vectors = UnsafeMutableBufferPointer<iovec>.allocate(capacity: WriteBuffer.maxVectors)

    func deallocate() {
        message.deallocate()
        vectors.deallocate()
    }
}

/// Why a loop has no io_uring (its connections use `sendmsg`). Thread-safe: a value type.
struct SendRingRefusal: Error, Sendable {
    let errnoCode: Int32
}
