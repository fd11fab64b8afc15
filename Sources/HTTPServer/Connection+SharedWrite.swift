import CSystem
import Glibc

extension Connection {
    /// Writes `identity` (an encoded event, often one array shared by many streams) to the open stream, after
    /// what is already queued for it. A gzip-coded stream writes `deflated` instead (the bytes compressed once for
    /// every stream sharing them; compressed here when nil) and adds it to its running checksum. With nothing
    /// queued, the bytes go straight from the shared array to the socket (no copy, no queue); only an unsent tail
    /// is queued, as the array itself with an offset. Drops the connection when its unsent bytes pass
    /// `maxWriteBufferBytes` (a slow consumer). Ignored unless streaming.
    /// - Important: Must be called on `owner.loop`.
    func writeShared(_ identity: [UInt8], deflated: DeflatedBlock? = nil) {
        guard phase == .streaming, !identity.isEmpty else { return }
        var bytes = identity
        if gzipStream != nil {
            let block = deflated ?? DeflatedBlock(compressing: identity)
            gzipStream?.append(block)
            bytes = block.bytes
        }
        // A stream that is opening (`corked`) queues its first writes, up to `roomThreshold`: its opener flushes
        // them with the response head in one send, then settles.
        let held = corked && output.count + bytes.count <= roomThreshold
        if output.count > 0 || held {
            output.append(bytes)
            if held { return }
            // Waiting for EPOLLOUT means the socket was full at the last try: no point trying again before it.
            if watchedEvents & csystem_EPOLLOUT == 0 { flush() }
        } else if let ring = sendRing {
            // Batched: prepared now, submitted with the loop's other sends at the end of its iteration; the bytes
            // stay queued (shared, not copied) until `sendCompleted` consumes what the kernel took.
            output.append(bytes)
            // In flight before the entry is prepared: a write made meanwhile (by a completion `send` reaps when
            // the queue is full) queues behind these bytes instead of sending them itself.
            sendInFlight = true
            let front = output.withFirstUnsentBytes { $0 }  // stays valid while queued (see the method)
            sendInFlight = ring.send(front, for: self)
            if sendInFlight { return }  // the watched events stay as they were: its completion flushes the rest
            flush()
            return settle()
        } else {
            let sent = sendNow(bytes)
            if sent == bytes.count { return }  // the usual case: nothing queued, nothing more to watch
            if sent < 0 { return close() }
            output.append(bytes, from: sent)
            lastWriteProgress = .now  // the stall timeout counts from when bytes started waiting
        }
        if output.count > context.configuration.maxWriteBufferBytes {
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
        owner.loop.assertInLoop()
        sendInFlight = false
        guard !isClosed else { return }
        if result > 0 {
            output.consume(Int(result))
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
        settle()
    }

    /// One `send` of `bytes`: the count sent, 0 when the socket is full, -1 on a connection error.
    private func sendNow(_ bytes: [UInt8]) -> Int {
        while true {
            let sent = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent >= 0 { return sent }
            if errno == EINTR { continue }
            return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : -1
        }
    }
}
