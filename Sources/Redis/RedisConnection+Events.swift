import CSystem
import EventLoop
import Glibc

/// The socket's events: a connect that finished, and replies read, parsed and handed to the oldest waiting command
/// (or to `onReply`). Loop-confined, as ``RedisConnection``.
extension RedisConnection {
    func handleEvents(_ events: UInt32) {
        loop.assertInLoop()
        switch state {
        case .connecting(let fd, _):
            if let why = RedisSocket.finish(fd) {
                fail(.connectFailed(why), reconnectAtOnce: false)
            } else {
                state = .connected(fd: fd)
                connected()
            }
        case .connected(let fd):
            if events & csystem_EPOLLOUT != 0 { flush() }
            guard case .connected(let current) = state, current == fd else { return }  // the flush failed
            if events & (csystem_EPOLLIN | csystem_EPOLLRDHUP | csystem_EPOLLHUP | csystem_EPOLLERR) != 0 {
                readAvailable(fd)
            }
        default:
            break
        }
    }

    private func readAvailable(_ fd: Int32) {
        for _ in 0..<16 {
            let count = loop.readBuffer.withUnsafeMutableBytes { buffer -> Int in
                let count = recv(fd, buffer.baseAddress, buffer.count, 0)
                if count > 0 { parser.append(UnsafeRawBufferPointer(rebasing: buffer[0..<count])) }
                return count
            }
            if count == 0 { return fail(.connectionLost, reconnectAtOnce: true) }
            if count < 0 {
                if errno == EAGAIN || errno == EINTR { return }
                return fail(.connectionLost, reconnectAtOnce: true)
            }
            do {
                while let reply = try parser.next() {
                    deliver(reply)
                    guard case .connected = state else { return }
                }
            } catch {
                // The reply at fault is the oldest command's; the others were only behind it on this connection.
                replies.takeOldest()?.complete?(.failure(error))
                return fail(.connectionLost, reconnectAtOnce: false)
            }
            if count < loop.readBuffer.count { return }
        }
    }

    private func deliver(_ reply: RESPValue) {
        // A RESP3 push is out of band (never a command's reply); without a waiting command, a RESP2 reply is a
        // subscriber's message.
        if case .push = reply { return onReply?(reply) ?? () }
        guard let entry = replies.takeOldest() else {
            onReply?(reply)
            return
        }
        if case .error(let message) = reply {
            entry.complete?(.failure(.server(message)))
        } else {
            entry.complete?(.success(reply))
        }
    }
}
