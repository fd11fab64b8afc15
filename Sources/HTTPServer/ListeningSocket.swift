import CSystem
import Foundation

/// Opens the listening socket: IPv4, non-blocking, close-on-exec, SO_REUSEADDR (and SO_REUSEPORT when asked: other
/// processes of this user may then listen on the same port, and the kernel spreads connections over all of them),
/// backlog 4096, and TCP_NODELAY, which Linux copies to every accepted socket (no `setsockopt` per connection).
/// Returns the fd and the bound port.
/// Thread-safe (no shared state).
enum ListeningSocket {
    static func open(host: String, port: Int, reusePort: Bool = false) throws(HTTPServerError) -> (fd: Int32, port: Int) {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(clamping: port)).bigEndian
        guard (0...65535).contains(port), inet_pton(AF_INET, host, &address.sin_addr) == 1 else {
            throw HTTPServerError(call: "inet_pton", errnoCode: 0, detail: "not an IPv4 address or port: \(host):\(port)")
        }
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | csystem_SOCK_NONBLOCK | csystem_SOCK_CLOEXEC, 0)
        guard fd >= 0 else { throw .system("socket") }
        do throws(HTTPServerError) {
            var one: Int32 = 1
            guard setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
                throw .system("setsockopt(SO_REUSEADDR)")
            }
            if reusePort, setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, socklen_t(MemoryLayout<Int32>.size)) != 0 {
                throw .system("setsockopt(SO_REUSEPORT)")
            }
            // Events go out as they are written (no Nagle delay); accepted sockets inherit it.
            guard setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
                throw .system("setsockopt(TCP_NODELAY)")
            }
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard bound == 0 else { throw .system("bind") }
            guard listen(fd, 4096) == 0 else { throw .system("listen") }
            var actual = sockaddr_in()
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let named = withUnsafeMutablePointer(to: &actual) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
            }
            guard named == 0 else { throw .system("getsockname") }
            return (fd, Int(UInt16(bigEndian: actual.sin_port)))
        } catch {
            Glibc.close(fd)
            throw error
        }
    }
}
