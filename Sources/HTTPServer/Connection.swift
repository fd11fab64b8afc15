import CSystem
import EventLoop
import Foundation
import Glibc

/// One accepted TCP connection: reads requests, answers them in order, writes through a bounded buffer.
///
/// Thread rules: loop-confined. Every method must be called on `owner.loop`; the class is
/// `@unchecked Sendable` only so work items and tasks can carry it back to that loop.
/// Ownership: the connection owns its fd and closes it exactly once in `close()`.
///
/// Exclusivity: its state is `@exclusivity(unchecked)` (checking each access was 6% of an arrival's instructions): it
/// is loop-confined, and no access spans a call that reaches it again (what is changed in place calls nothing back).
final class Connection: EventHandler, @unchecked Sendable {
    let fd: Int32
    /// The client's IPv4 address (host order; 0 if unknown), released to `context.admission` on close.
    let address: UInt32
    unowned let owner: ServerLoop
    /// The loop's io_uring for sends (nil: `sendmsg`), held here so a write need not load it through `owner`.
    let sendRing: SendRing?
    /// The server's context, through `owner`: not held here, since a context's responder may hold this connection's
    /// stream writer (a reference cycle that outlived the server, which LeakSanitizer reported).
    var context: ServerContext { owner.context }
    @exclusivity(unchecked) var state = State.idle { didSet { timing = Timing(state) } }
    /// What the sweep reads of `state`, kept beside it on every assignment: no payload to retain, so reading it for
    /// 10,000 connections every tick copies nothing (reading `state` itself copied the enum, a retain and release
    /// of its writer or task each, through the runtime's multi-payload enum witness: most of a sweep).
    @exclusivity(unchecked) private(set) var timing = Timing.idle
    /// This connection's index in its loop's list (``ServerLoop``), -1 when not listed. Loop-confined.
    @exclusivity(unchecked) var slot = -1
    /// The request parser while requests are read (``RequestReader``): let go when a stream opens.
    @exclusivity(unchecked) var requests: RequestReader?
    @exclusivity(unchecked) var output = WriteBuffer()
    /// The open stream's gzip state when it is gzip-coded (nil otherwise): 8 bytes, no compressor.
    @exclusivity(unchecked) var gzipStream: GzipStream?
    /// Callers waiting for `output` to drain (`writeShared(_:deflated:whenWritten:)`); empty (no storage) almost always.
    @exclusivity(unchecked) var writtenNotices: [@Sendable () -> Void] = []
    @exclusivity(unchecked) var closeWhenFlushed = false
    @exclusivity(unchecked) var inputClosed = false
    @exclusivity(unchecked) var shuttingDown = false
    @exclusivity(unchecked) var watchedEvents: UInt32 = 0
    /// A send of the front of `output` is in the loop's ``SendRing`` (prepared or submitted, not yet completed):
    /// nothing else may send until `sendCompleted` (one send in flight per socket keeps its bytes in order).
    @exclusivity(unchecked) var sendInFlight = false
    /// The gathering sendmsg of the send in flight, when it covers several arrays (its ``SendRing`` frees it).
    @exclusivity(unchecked) var ringSlot: SendSlot?
    /// In its loop's end-of-pass flush list (``ServerLoop/flushAtEndOfPass(_:)``).
    @exclusivity(unchecked) var flushQueued = false
    /// Stream writes queued since the queue was last empty (``countDrainedWrites()``).
    @exclusivity(unchecked) var writesUnsent = 0
    /// Closed with a send in flight: the fd stays open (out of the epoll set, shut both ways) until the send's
    /// completion, so a prepared entry never names a number `close` freed (``closeDeferredFD()``).
    @exclusivity(unchecked) private(set) var fdOpenForSend = false
    /// When the connection last became idle, and when the first byte of a pending request arrived.
    @exclusivity(unchecked) var idleSince = MonotonicInstant.now
    @exclusivity(unchecked) var requestStartedAt: MonotonicInstant?
    @exclusivity(unchecked) var lastWriteProgress = MonotonicInstant.now
    /// A task waits for the open stream's unsent bytes to drain (``StreamWriter/waitForRoom()``).
    @exclusivity(unchecked) var roomWanted = false
    /// While a stream opens: its writes are queued, not sent, so the response head and the first events (`session`,
    /// `loading` and, from memory, the first `rows`) leave in one gathering send by the caller's `flush()`.
    @exclusivity(unchecked) var corked = false
    /// Set once the answer is sent and the write side shut: until then, input is read and discarded (see `linger`).
    @exclusivity(unchecked) var lingerUntil: MonotonicInstant?
    /// Counts `.later` answers, to give each `Pending` its id.
    @exclusivity(unchecked) private var pendingCount: UInt64 = 0

    /// Asserts the caller is on `owner.loop`, in debug builds only: in release not even `owner` is loaded (an
    /// unowned load is a retain and a release, on the fan-out path per viewer per event).
    @inline(__always) func assertOnLoop() {
        assert(owner.loop.inEventLoop, "called off its loop's thread, which its thread rule forbids")
    }

    init(fd: Int32, address: UInt32, owner: ServerLoop) {
        self.fd = fd
        self.address = address
        self.owner = owner
        sendRing = owner.sendRing
    }

    func handleEvents(_ events: UInt32) {
        assertOnLoop()
        if events & csystem_EPOLLERR != 0 { return close() }
        // Hung up both ways while not reading (a pending answer's input is full): nothing can be delivered.
        if events & csystem_EPOLLHUP != 0, readLimit == 0 { return close() }
        if events & (csystem_EPOLLIN | csystem_EPOLLHUP) != 0 { readAvailable() }
        if events & csystem_EPOLLOUT != 0 { flush() }
        processRequests()
        settle()
    }

    /// Reads what is available (bounded per wake-up, for fairness).
    private func readAvailable() {
        for _ in 0..<4 where !isClosed && !inputClosed {
            let limit = readLimit
            guard limit > 0 else { return }
            let count = owner.loop.readBuffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, limit, 0) }
            if count == 0 {
                inputClosed = true
            } else if count < 0 {
                if errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR { close() }
                return
            } else if lingerUntil != nil {
                continue  // closing: what the peer still sends is discarded (see `linger`)
            } else if phase == .streaming {
                continue  // requests after a stream's request are never answered: discard
            } else {
                if bufferedInput == 0, requestStartedAt == nil { requestStartedAt = .now }
                requestReader.parser.append(owner.loop.readBuffer[0..<count])
                if count < limit { return }
            }
        }
    }

    /// Most bytes the next read may take. While a `.later` answer is pending, pipelined input is buffered only up
    /// to `maxPendingInput`; past it the socket is not read until the answer is sent (TCP then slows the sender),
    /// so a client cannot make the server hold more than that while it waits (it took 2 GB before).
    private var readLimit: Int {
        guard phase == .waiting else { return owner.loop.readBuffer.count }
        let room = Self.maxPendingInput(context.configuration.limits) - bufferedInput
        return max(0, min(owner.loop.readBuffer.count, room))
    }

    /// Answers complete requests in order while idle and the write buffer has room, then writes.
    func processRequests() {
        assertOnLoop()
        let bound = context.configuration.maxWriteBufferBytes
        while true {
            while isIdle, !closeWhenFlushed, output.count <= bound {
                let request: HTTPRequest
                do {
                    guard let next = try requests?.parser.next() else { break }
                    request = next
                } catch {
                    context.counters.totalRequests.add(1, ordering: .relaxed)
                    let response = context.ownAnswer(HTTPError(error.status, error.message))
                    send(response, head: false, keepAlive: false, version: .http1_1)
                    break
                }
                context.counters.totalRequests.add(1, ordering: .relaxed)
                requestStartedAt = bufferedInput > 0 ? .now : nil
                dispatch(request)
            }
            let heldBack = output.count > bound
            // A stream just opened (its head and first events): sent with the pass's other sends, at its end (one
            // io_uring submission for a storm of arrivals, and the readers woken once for many), not one by one.
            if phase == .streaming, !heldBack, flushQueued { return }
            flush()
            // This write made room for the pipelined requests the bound held back: answer them now. Nothing else
            // would (their bytes are read and the output drained: no event comes), so they waited for the head
            // timeout and got 408.
            guard heldBack, output.count <= bound else { return }
        }
    }

    private func dispatch(_ parsed: HTTPRequest) {
        var addressed = parsed
        if address != 0 { addressed.peerAddress = address }
        let request = addressed
        let keepAlive = request.wantsKeepAlive && !shuttingDown
        let head = request.method == .head
        let coding = ContentCoding.negotiated(acceptEncoding: request.headers.values(for: HTTPFieldName.acceptEncoding))
        switch context.responder.respond(to: request) {
        case .now(let response):
            send(response, head: head, keepAlive: keepAlive, version: request.version, coding: coding)
        case .later(let produce):
            pendingCount += 1
            let id = pendingCount
            let loop = owner.loop
            let task = Task {
                let response = await produce()
                loop.execute {
                    // Not waiting for this answer any more: timed out (and answered 504), or closed.
                    guard case .waiting(let pending) = self.state, pending.id == id else { return }
                    self.state = .idle
                    self.send(response, head: head, keepAlive: keepAlive && !self.shuttingDown,
                              version: request.version, coding: coding)
                    self.processRequests()
                    self.settle()
                }
            }
            state = .waiting(Pending(id: id, task: task, deadline: .now + context.configuration.responseTimeout,
                                     head: head, version: request.version))
        }
    }

    /// Queues `response`, gzip-coded when the client's `coding` is gzip and it is compressible; opens a stream.
    private func send(_ original: HTTPResponse, head: Bool, keepAlive: Bool, version: HTTPVersion,
                      coding accepted: ContentCoding = .identity) {
        idleSince = .now
        switch original.body {
        case .bytes:
            let response = original.coded(for: accepted).0
            guard case .bytes(let body) = response.body else { preconditionFailure("coding keeps the case") }
            output.append(ResponseHead.encode(response, contentLength: body.count, close: !keepAlive,
                                              keepAliveHeader: version == .http1_0))
            if !head && !response.status.forbidsBody { output.append(body) }
            if !keepAlive { closeWhenFlushed = true }
        case .stream(let open):
            let (streamHead, coding) = owner.streamHeads.head(of: original, accepting: accepted)
            output.append(streamHead)
            guard !head else { return closeWhenFlushed = true }
            closeWhenFlushed = false
            if coding == .gzip {
                output.append(GzipStream.header)
                gzipStream = GzipStream()
            }
            let writer = StreamWriter(connection: self, loop: owner.loop, coding: coding)
            let interval = context.configuration.heartbeatInterval
            state = .streaming(writer, heartbeatDue: original.isEventStream ? .now + interval : nil)
            context.counters.openStreams.add(1, ordering: .relaxed)
            requests = nil  // never parsed again: what the peer still sends is read and discarded
            corked = true
            open(writer)
            corked = false  // every caller of `send` flushes next
            if shuttingDown { drainStream() }
        }
    }

    /// Applies a stream writer's output. Drops the connection when the buffer passes its limit.
    func streamOutput(_ item: StreamWriter.Output) {
        assertOnLoop()
        switch item {
        case .bytes(let bytes):
            writeShared(bytes)
        case .finish:
            guard phase == .streaming else { return }
            finishStream()
            settle()
        }
    }

    /// Ends the open stream at shutdown: an event stream first gets its own random `retry:` (`DrainHint`), so its
    /// viewer reconnects within the drain window and resumes after its last event id. No-op unless streaming.
    func drainStream() {
        assertOnLoop()
        guard case .streaming(_, let heartbeatDue) = state else { return }
        if heartbeatDue != nil, let hint = DrainHint.retryField(window: context.configuration.drainWindow) {
            writeShared(hint)
        }
        finishStream()
    }

    /// Ends the open stream: its writer reports closed now; the connection closes once flushed.
    func finishStream() {
        assertOnLoop()
        guard case .streaming(let writer, _) = state else { return }
        state = .idle
        closeWhenFlushed = true
        if let gzip = gzipStream { output.append(gzip.trailer) }
        gzipStream = nil
        context.counters.openStreams.add(-1, ordering: .relaxed)
        writer.close()
        flush()
    }

    /// Writes as much buffered output as the socket takes.
    func flush() {
        assertOnLoop()
        while !isClosed, !sendInFlight, output.count > 0 {
            // One gathering send of the queued arrays (a response head and its body go out together).
            // One array (a stream's usual pass: one event) goes with a plain `send`, the kernel's shorter path.
            let (sent, offered) = output.withUnsentVectors { vectors in
                if vectors.count == 1 {
                    return (Glibc.send(fd, vectors[0].iov_base, vectors[0].iov_len, Int32(MSG_NOSIGNAL)), vectors[0].iov_len)
                }
                var message = msghdr()
                message.msg_iov = UnsafeMutablePointer(mutating: vectors.baseAddress)
                message.msg_iovlen = vectors.count
                return (sendmsg(fd, &message, Int32(MSG_NOSIGNAL)), vectors.reduce(0) { $0 + $1.iov_len })
            }
            if sent > 0 {
                output.consume(sent)
                if output.count == 0 { countDrainedWrites() }
                lastWriteProgress = .now
                // Drained with request bytes held back meanwhile: the next request's time starts now (see `sweep`).
                if output.count == 0, requestStartedAt != nil { requestStartedAt = lastWriteProgress }
                releaseRoomIfDrained()
                runWrittenNotices()
                if sent < offered { return }  // the socket buffer is full: wait for EPOLLOUT
            } else if sent < 0 && errno == EINTR {
                continue
            } else {
                if sent < 0 && errno != EAGAIN && errno != EWOULDBLOCK { close() }
                return
            }
        }
    }

    /// Closes when finished, else updates the watched events.
    func settle() {
        assertOnLoop()
        guard !isClosed else { return }
        // A peer that hung up cannot read a stream any more; nor, like nginx assumes by default, a pending answer:
        // closing cancels the work computing it (a client that half-closes and still reads loses that answer).
        if inputClosed, phase == .streaming || phase == .waiting { return close() }
        if output.count == 0 {
            if closeWhenFlushed { return linger() }
            if inputClosed, isIdle { return close() }
        }
        var wanted: UInt32 = 0
        let roomToRead = switch phase {
        case .idle: output.count <= context.configuration.maxWriteBufferBytes
            && bufferedInput < Self.maxBufferedInput(context.configuration.limits)
        case .waiting: readLimit > 0
        case .streaming, .closed: true  // a stream's peer is read (and discarded) to see it hang up
        }
        if !inputClosed && (!closeWhenFlushed || lingerUntil != nil) && roomToRead { wanted |= csystem_EPOLLIN }
        // In flight: its completion flushes; queued for the end-of-pass flush: that sends (and settles) this pass, unless
        // the socket was full already (EPOLLOUT watched: kept, not taken off and put back).
        if output.count > 0, !sendInFlight, !flushQueued || watchedEvents & csystem_EPOLLOUT != 0 {
            wanted |= csystem_EPOLLOUT
        }
        if wanted != watchedEvents {
            watchedEvents = wanted
            owner.loop.modify(fd, events: wanted)
        }
    }

    /// Closes the fd and ends any stream. Idempotent.
    /// Lingering close, as HTTP servers do: once the last answer is sent, shut the write side and read (and
    /// discard) until the peer closes or `lingerTime` passes, then close. Closing at once while the peer is still
    /// sending (a trickled head, a pipelined request) makes the kernel answer with a reset that can destroy the
    /// answer before the peer reads it.
    private func linger() {
        if inputClosed || shuttingDown { return close() }
        guard lingerUntil == nil else { return }
        lingerUntil = .now + Self.lingerTime
        _ = Glibc.shutdown(fd, Int32(SHUT_WR))
    }

    /// How long a closing connection keeps reading what its peer still sends.
    static let lingerTime: Duration = .seconds(1)

    func close() {
        assertOnLoop()
        if isClosed { return }
        if case .waiting(let pending) = state { pending.task.cancel() }  // nobody can receive its answer now
        if case .streaming(let writer, _) = state {
            context.counters.openStreams.add(-1, ordering: .relaxed)
            state = .closed
            writer.close()
        }
        state = .closed
        writtenNotices = []
        if sendInFlight {
            // A send names this fd (prepared, or in the kernel). Submit it now (its bytes go out first), but keep the
            // fd open until its completion: a submit the kernel refused leaves the entry prepared, naming this number.
            sendRing?.submitPrepared()
            owner.loop.deregister(fd)
            _ = Glibc.shutdown(fd, Int32(SHUT_RDWR))  // the peer sees the close now
            fdOpenForSend = true
        } else {
            owner.loop.forget(fd)  // closing the fd takes it out of the epoll set
            Glibc.close(fd)
        }
        context.admission.release(address)
        owner.remove(self)
    }
}

extension Connection {
    /// Closes the fd `close()` kept open for the send in flight, now completed. - Important: loop-confined.
    func closeDeferredFD() {
        assertOnLoop()
        guard fdOpenForSend else { return }
        fdOpenForSend = false
        Glibc.close(fd)
    }

    /// The request did not arrive in time: 408 and close.
    func timeOutRequest() {
        assertOnLoop()
        send(context.ownAnswer(HTTPError(.requestTimeout, "Request timeout.")), head: false, keepAlive: false,
             version: .http1_1)
        flush()
        settle()
    }

    /// A `.later` answer outlived `responseTimeout`: its task is cancelled (a late answer is dropped), the client
    /// gets 504 and the connection closes (pipelined requests after it are not answered).
    func timeOutResponse() {
        assertOnLoop()
        guard case .waiting(let pending) = state else { return }
        pending.task.cancel()
        state = .idle
        send(context.ownAnswer(HTTPError(.gatewayTimeout, "Response timeout.")), head: pending.head, keepAlive: false,
             version: pending.version)
        flush()
        settle()
    }
}
