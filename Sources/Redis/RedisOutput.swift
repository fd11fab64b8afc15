import Glibc

/// The bytes one Redis connection has still to write: commands encoded (RESP), sent from where the last send
/// stopped.
///
/// Thread rules: a value type, owned by its ``RedisConnection`` and used on that connection's loop only.
struct RedisOutput {
    enum Sent {
        /// Everything is written.
        case all
        /// The socket is full: the rest waits for it to be writable.
        case wouldBlock
        /// The socket failed.
        case failed
    }

    private var bytes: [UInt8] = []
    private var start = 0

    /// Encodes a command after what is waiting.
    mutating func append(_ arguments: [RedisArgument]) {
        RESPEncoder.append(arguments, to: &bytes)
    }

    /// Forgets what is waiting (a new connection starts empty).
    mutating func reset() {
        bytes = []
        start = 0
    }

    /// Writes what is waiting to `fd` until it is all written, the socket is full or it fails.
    mutating func send(to fd: Int32) -> Sent {
        while start < bytes.count {
            let written = bytes.withUnsafeBytes { raw in
                Glibc.send(fd, raw.baseAddress! + start, raw.count - start, Int32(MSG_NOSIGNAL))
            }
            if written > 0 {
                start += written
            } else if written < 0 && (errno == EAGAIN || errno == EINTR) {
                return .wouldBlock
            } else {
                return .failed
            }
        }
        bytes.removeAll(keepingCapacity: bytes.capacity <= 1 << 20)
        start = 0
        return .all
    }
}
