import CSystem
import Foundation

/// The listening socket's handler, on loop 0. Accepts until `EAGAIN` and spreads connections round-robin over
/// all loops (loop 0 accepts and hands off through `execute`; one listening socket, no SO_REUSEPORT).
///
/// Thread rules: loop-confined to loop 0. Ownership: owns the listening fd; `close()` closes it.
final class Listener: EventHandler, @unchecked Sendable {
    let fd: Int32
    private let loops: [ServerLoop]
    private var next = 0
    private var isOpen = true

    init(fd: Int32, loops: [ServerLoop]) {
        self.fd = fd
        self.loops = loops
    }

    func handleEvents(_ events: UInt32) {
        while isOpen {
            let accepted = csystem_accept(fd)
            guard accepted >= 0 else {
                // EAGAIN: drained. Per-connection errors (ECONNABORTED...) are skipped; EMFILE and the like
                // stop this round (level-triggered epoll retries on the next wake-up).
                if errno == ECONNABORTED || errno == EINTR || errno == EPROTO { continue }
                return
            }
            let target = loops[next % loops.count]
            next &+= 1
            if target.loop.inEventLoop {
                target.adopt(accepted)
            } else {
                target.loop.execute { target.adopt(accepted) }
            }
        }
    }

    /// Stops accepting and closes the listening fd. Idempotent. - Important: loop-confined.
    func close() {
        guard isOpen else { return }
        isOpen = false
        loops[0].loop.deregister(fd)
        Glibc.close(fd)
    }
}
