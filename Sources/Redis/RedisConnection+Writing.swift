import CSystem
import EventLoop

/// Writing: queued commands leave in one `send(2)` per loop turn; while the socket is full the connection also
/// watches for writability. Loop-confined, as ``RedisConnection``.
extension RedisConnection {
    /// Flushes later in this loop turn, once however many commands are sent before then.
    func scheduleFlush() {
        guard case .connected = state, !flushScheduled else { return }
        flushScheduled = true
        // Later in this loop turn: commands sent together leave in one write.
        loop.execute { [self] in
            flushScheduled = false
            flush()
        }
    }

    /// Sends what the output holds; on a full socket, watches for writability until it is empty again.
    func flush() {
        guard case .connected(let fd) = state else { return }
        switch output.send(to: fd) {
        case .all:
            break
        case .wouldBlock:
            if !watchingWritable {
                watchingWritable = true
                loop.modify(fd, events: csystem_EPOLLIN | csystem_EPOLLRDHUP | csystem_EPOLLOUT)
            }
            return
        case .failed:
            return fail(.connectionLost, reconnectAtOnce: true)
        }
        if watchingWritable {
            watchingWritable = false
            loop.modify(fd, events: csystem_EPOLLIN | csystem_EPOLLRDHUP)
        }
    }
}
