import CSystem
import Glibc

/// Starts a non-blocking connect to a ``RedisAddress``. Thread-safe (no shared state).
enum RedisSocket {
    enum Started {
        /// Connected already (unix sockets usually are).
        case connected(Int32)
        /// In progress: wait for the fd to be writable, then read `SO_ERROR` (`finish`).
        case inProgress(Int32)
    }

    /// A parsed address, ready for `connect(2)`.
    enum Resolved {
        case unix(sockaddr_un)
        case v4(sockaddr_in)
        case v6(sockaddr_in6)
    }

    /// Parses `address` (no DNS: see ``RedisAddress``). Throws ``RedisError/invalidConfiguration(_:)``.
    static func resolve(_ address: RedisAddress) throws(RedisError) -> Resolved {
        switch address {
        case .unix(let path):
            var storage = sockaddr_un()
            storage.sun_family = sa_family_t(AF_UNIX)
            let bytes = Array(path.utf8)
            let capacity = MemoryLayout.size(ofValue: storage.sun_path)
            guard !bytes.isEmpty, bytes.count < capacity, !bytes.contains(0) else {
                throw .invalidConfiguration("unix socket path empty or longer than \(capacity - 1) bytes")
            }
            withUnsafeMutableBytes(of: &storage.sun_path) { raw in
                raw.copyBytes(from: bytes)
                raw[bytes.count] = 0
            }
            return .unix(storage)
        case .tcp(let host, let port):
            guard (1...65535).contains(port) else { throw .invalidConfiguration("port \(port)") }
            let numeric = host == "localhost" ? "127.0.0.1" : host
            var v4 = sockaddr_in()
            if inet_pton(AF_INET, numeric, &v4.sin_addr) == 1 {
                v4.sin_family = sa_family_t(AF_INET)
                v4.sin_port = in_port_t(UInt16(port)).bigEndian
                return .v4(v4)
            }
            var v6 = sockaddr_in6()
            let bracketed = numeric.hasPrefix("[") && numeric.hasSuffix("]")
            let bare = bracketed ? String(numeric.dropFirst().dropLast()) : numeric
            guard inet_pton(AF_INET6, bare, &v6.sin6_addr) == 1 else {
                throw .invalidConfiguration("host must be a numeric IPv4 or IPv6 address or localhost")
            }
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = in_port_t(UInt16(port)).bigEndian
            return .v6(v6)
        }
    }

    static func connect(to address: RedisAddress) throws(RedisError) -> Started {
        switch try resolve(address) {
        case .unix(let storage): return try start(family: AF_UNIX, storage, length: MemoryLayout<sockaddr_un>.size)
        case .v4(let storage): return try start(family: AF_INET, storage, length: MemoryLayout<sockaddr_in>.size)
        case .v6(let storage): return try start(family: AF_INET6, storage, length: MemoryLayout<sockaddr_in6>.size)
        }
    }

    /// The outcome of an in-progress connect once the fd is writable: nil when connected, else why not.
    static func finish(_ fd: Int32) -> String? {
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) == 0 else { return reason(errno) }
        return error == 0 ? nil : reason(error)
    }

    static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }

    private static func start<Address>(family: Int32, _ address: Address, length: Int) throws(RedisError) -> Started {
        let fd = socket(family, Int32(SOCK_STREAM.rawValue) | csystem_SOCK_NONBLOCK | csystem_SOCK_CLOEXEC, 0)
        guard fd >= 0 else { throw .connectFailed("socket: \(reason(errno))") }
        if family != AF_UNIX {
            var one: Int32 = 1
            _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        }
        var copy = address
        let result = withUnsafePointer(to: &copy) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(length)) }
        }
        if result == 0 { return .connected(fd) }
        let code = errno
        if code == EINPROGRESS { return .inProgress(fd) }
        Glibc.close(fd)
        // EAGAIN on a unix socket: the server's backlog is full; treated as a failed attempt (retried with backoff).
        throw .connectFailed(reason(code))
    }
}
