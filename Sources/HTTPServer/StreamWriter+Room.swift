import Synchronization

extension StreamWriter {
    /// Suspends until the connection has sent all but at most a quarter of its write-buffer limit
    /// (`maxWriteBufferBytes`) of what was written before the call, or the stream has ended: back-pressure for a
    /// producer that makes its bytes as it goes (an export walking an upstream), so a slow client slows the
    /// producer instead of filling the buffer until the connection is dropped as a slow consumer. Write at most
    /// about half the limit between two waits. Returns at once for an in-memory writer (``init(closesOnFinish:sink:)``)
    /// and once the stream has ended (check ``isOpen``). Not cancellable: the stream's end resumes it.
    public func waitForRoom() async {
        guard case .connection(let connection, let loop) = target else { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let waiting = state.withLock { state -> Bool in
                guard !state.closed else { return false }
                state.roomWaiters.append(continuation)
                return true
            }
            guard waiting else { return continuation.resume() }
            // Through the loop, after the writes queued before this call: they count.
            loop.execute { connection.checkRoom(for: self) }
        }
    }

    /// Resumes every task waiting for room. Called by the connection on its loop.
    func resumeRoomWaiters() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            defer { state.roomWaiters = [] }
            return state.roomWaiters
        }
        for waiter in waiters { waiter.resume() }
    }
}
