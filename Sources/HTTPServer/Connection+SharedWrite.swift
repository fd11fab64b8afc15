import CSystem
import Glibc

extension Connection {
    /// Writes `identity` (an encoded event, often one array shared by many streams) to the open stream, after
    /// what is already queued for it. A gzip-coded stream writes `deflated` instead (the bytes compressed once for
    /// every stream sharing them; compressed here when nil) and adds it to its running checksum, in write order.
    ///
    /// The bytes are queued (the array itself, shared, not copied) and sent at the end of the loop's pass
    /// (``flushAtEndOfPass()``), with everything else the pass queued for this connection: one gathering send for
    /// all of them. With no backlog that is one event per send, as before, sent a little later in the same pass; when
    /// broadcasts queue up behind each other, N events to a viewer cost one send. Ignored unless streaming.
    /// - Important: Must be called on `owner.loop`.
    func writeShared(_ identity: [UInt8], deflated: DeflatedBlock? = nil) {
        guard phase == .streaming, !identity.isEmpty else { return }
        var bytes = identity
        if gzipStream != nil {
            let block = deflated ?? DeflatedBlock(compressing: identity)
            gzipStream?.append(block, of: identity)
            bytes = block.bytes
        }
        if output.count == 0 { lastWriteProgress = .now }  // the stall timeout counts from when bytes start waiting
        output.append(bytes)
        writesUnsent &+= 1
        // A stream that is opening (`corked`) is flushed by its opener, with the response head, in one send.
        owner.flushAtEndOfPass(self)
    }

    /// Sends what this pass queued (``ServerLoop``'s end-of-pass flush calls it once per connection that was
    /// written): one gathering `sendmsg`, or one io_uring entry, for every array queued, up to
    /// ``WriteBuffer/maxVectors``. Then drops the connection when its unsent bytes pass `maxWriteBufferBytes` (a
    /// slow consumer): what stays unsent after this send counts, not what the pass queued, so a fast reader written
    /// past the limit within one pass is kept. On io_uring that check waits for the send's completion
    /// (``sendCompleted(_:)``), reaped in the same end-of-pass flush.
    /// - Important: Must be called on `owner.loop`.
    func flushAtEndOfPass() {
        assertOnLoop()
        guard !isClosed, !sendInFlight else { return }  // in flight: its completion sends the rest and checks
        let limit = context.configuration.maxWriteBufferBytes
        // Waiting for EPOLLOUT means the socket was full at the last try: no point trying again before it, unless
        // the bytes are over the limit (one more try before dropping).
        if output.count > 0, watchedEvents & csystem_EPOLLOUT == 0 || output.count > limit {
            if let ring = sendRing {
                // In flight before the entry is prepared: a write made meanwhile (by a completion `sendQueued` reaps
                // when the submission queue is full) queues behind these bytes instead of sending them itself.
                sendInFlight = true
                sendInFlight = ring.sendQueued(of: self)
                if sendInFlight { return }  // the watched events stay as they were: its completion flushes the rest
                // Not prepared, and a completion reaped meanwhile closed this connection: `close()` kept the fd for
                // a send that now never comes, so it closes here.
                if isClosed { return closeDeferredFD() }
            }
            flush()
        }
        checkLimitAndSettle()
    }

    /// A send drained the queue: the stream writes it held beyond the first left together
    /// (``HTTPServerStatistics/sendsCoalesced``). - Important: Must be called on `owner.loop`.
    func countDrainedWrites() {
        if writesUnsent > 1 { context.counters.sendsCoalesced.add(writesUnsent - 1, ordering: .relaxed) }
        writesUnsent = 0
    }

    /// After a send: drops the connection when its unsent bytes pass `maxWriteBufferBytes` (a slow consumer), else
    /// settles its watched events. - Important: Must be called on `owner.loop`.
    func checkLimitAndSettle() {
        guard !isClosed else { return }
        if output.count > context.configuration.maxWriteBufferBytes, phase == .streaming {
            context.counters.droppedSlowConsumers.add(1, ordering: .relaxed)
            return close()
        }
        settle()
    }

    /// Writes `head`, then `bytes` (one event: its own head and a body often shared by many streams), after what
    /// is already queued: both queued as they are (no copy) and sent in one gathering send. A gzip-coded stream
    /// writes `deflatedHead`, then `deflated` (the body's block, compressed once for every stream sharing it): the
    /// writer compresses off the loop; either is compressed here only when nil. Ignored unless streaming.
    /// - Important: Must be called on `owner.loop`.
    func writeShared(_ bytes: [UInt8], after head: [UInt8], deflated: DeflatedBlock? = nil,
                     deflatedHead: DeflatedBlock? = nil) {
        guard phase == .streaming else { return }
        guard !head.isEmpty else { return writeShared(bytes, deflated: deflated) }
        guard !bytes.isEmpty else { return writeShared(head, deflated: deflatedHead) }
        if gzipStream != nil {
            writeShared(head, deflated: deflatedHead)
            return writeShared(bytes, deflated: deflated)
        }
        if output.count == 0 { lastWriteProgress = .now }  // the stall timeout counts from when bytes start waiting
        output.append(head)
        writeShared(bytes)
    }

    /// A send through the loop's ``SendRing`` completed: `result` bytes of the queue's front were sent, or -errno.
    /// The rest (a partial send's tail, writes queued meanwhile) continues through `flush()`'s `sendmsg` and
    /// EPOLLOUT, as on the `sendmsg` path; an error closes the connection. Runs for a closed connection too (its
    /// send was in flight when it closed): then only lets go of the bytes.
    /// - Important: Must be called on `owner.loop`.
    func sendCompleted(_ result: Int32) {
        assertOnLoop()
        sendInFlight = false
        guard !isClosed else {
            if fdOpenForSend { closeDeferredFD() }
            return
        }
        if result > 0 {
            output.consume(Int(result))
            if output.count == 0 { countDrainedWrites() }
        } else if result != -EAGAIN && result != -EINTR && result != 0 {
            return close()
        }
        if output.count > 0 {
            context.counters.ioUringSendsContinued.add(1, ordering: .relaxed)
            lastWriteProgress = .now  // the stall timeout counts from when bytes started waiting
            flush()
        } else {
            if requestStartedAt != nil { requestStartedAt = .now }
            releaseRoomIfDrained()
            runWrittenNotices()
            // Drained: the watched events are those of before the send (EPOLLOUT is never watched with a send in
            // flight), unless the stream finished or its peer hung up meanwhile.
            guard closeWhenFlushed || inputClosed || isClosed else { return }
        }
        checkLimitAndSettle()
    }
}
