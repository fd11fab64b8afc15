import CSystem
import Glibc

/// Opens the load client's non-blocking TCP connections to a server on 127.0.0.1, each bound first to a source
/// address of its own group: connection `n` comes from 127.0.0.(2 + n / perAddress). The server admits at most
/// 4,096 connections per client address, so 10,000+ streams need several. `IP_BIND_ADDRESS_NO_PORT` leaves the
/// port choice to `connect`, so each source address has the whole ephemeral range to itself.
/// Thread rules: stateless; any thread.
enum Dialer {
    static let perAddress = 4_000

    /// 127.0.0.2, the first source address of a load client that is not told otherwise (host byte order).
    static let firstSource: UInt32 = 0x7F00_0002

    /// The source address of connection `n` (network byte order): `first` (host byte order) for the first
    /// `perAddress` connections, the next address for the next ones, and so on (at most 250 addresses on). Several
    /// load processes (`Scripts/bench scale`) each start at their own `first` (`--source`), so none shares an address.
    static func sourceAddress(_ n: Int, first: UInt32 = firstSource, perAddress: Int = perAddress) -> in_addr_t {
        let host = first + UInt32(min(n / max(perAddress, 1), 250))
        return host.bigEndian
    }

    /// Source address `n` of `count` taken in turn (127.0.0.2 ...): for churning clients whose connections come and
    /// go, so that no address nears the per-address cap.
    static func rotatingAddress(_ n: Int, over count: Int) -> in_addr_t {
        (UInt32(0x7F00_0002) + UInt32(n % max(1, min(count, 250)))).bigEndian
    }

    /// A socket connecting (non-blocking) from `sourceAddress(n)` to 127.0.0.1:`port`, or -1 with errno set.
    static func connect(port: UInt16, connection n: Int) -> Int32 {
        connect(port: port, from: sourceAddress(n))
    }

    /// A socket connecting (non-blocking) from `source` to 127.0.0.1:`port`, or -1 with errno set.
    static func connect(port: UInt16, from sourceAddress: in_addr_t) -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | csystem_SOCK_NONBLOCK | csystem_SOCK_CLOEXEC, 0)
        guard fd >= 0 else { return -1 }
        var one: Int32 = 1
        _ = setsockopt(fd, Int32(IPPROTO_IP), 24 /* IP_BIND_ADDRESS_NO_PORT */, &one, socklen_t(4))
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(4))
        var source = sockaddr_in()
        source.sin_family = sa_family_t(AF_INET)
        source.sin_addr.s_addr = sourceAddress
        var target = sockaddr_in()
        target.sin_family = sa_family_t(AF_INET)
        target.sin_port = port.bigEndian
        target.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let bound = withUnsafePointer(to: &source) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        let connected = bound == 0 ? withUnsafePointer(to: &target) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        } : -1
        guard connected == 0 || errno == EINPROGRESS else {
            let saved = errno
            close(fd)
            errno = saved
            return -1
        }
        return fd
    }
}

/// Wall-clock time in microseconds since the Unix epoch: the clock the bench stamps events with, shared by every
/// process on the machine (the servers, the peers and this client).
func wallMicros() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1_000
}

/// Readings of a process: another's CPU time and resident memory from /proc, and this one's own CPU time.
enum ProcessProbe {
    /// The CPU time of `pids` summed (a cluster's instances), in microseconds; one that has gone counts 0.
    static func cpuMicros(_ pids: [Int32]) -> Int64 {
        pids.reduce(0) { $0 + (cpuMicros($1) ?? 0) }
    }

    /// The CPU time of `pid` in microseconds, its exited threads' included, or nil: its process CPU clock
    /// (`clock_getcpuclockid`, nanoseconds), else user plus system time from /proc/PID/stat (clock ticks: 10 ms, which
    /// at 10,000 storm viewers made the CPU per viewer a whole number of microseconds).
    static func cpuMicros(_ pid: Int32) -> Int64? {
        var clock = clockid_t()
        var now = timespec()
        if clock_getcpuclockid(pid, &clock) == 0, clock_gettime(clock, &now) == 0 {
            return Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1_000
        }
        return statMicros(pid)
    }

    /// This process's own CPU time, user plus system (getrusage `RUSAGE_SELF`, microseconds; all its threads).
    static func selfCPUMicros() -> Int64 {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Int64(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1_000_000
            + Int64(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec)
    }

    /// User plus system CPU time of `pid` in microseconds (fields 14 and 15 of /proc/PID/stat), or nil.
    static func statMicros(_ pid: Int32) -> Int64? {
        guard let text = read("/proc/\(pid)/stat"), let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Int64(fields[11]), let system = Int64(fields[12]) else { return nil }
        let ticks = Int64(sysconf(Int32(_SC_CLK_TCK)))
        return (user + system) * 1_000_000 / max(ticks, 1)
    }

    /// VmRSS of `pid` in kilobytes, or nil.
    static func rssKilobytes(_ pid: Int32) -> Int? {
        guard let text = read("/proc/\(pid)/status") else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
        }
        return nil
    }

    private static func read(_ path: String) -> String? {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 4_096)
        let count = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        return count > 0 ? String(decoding: bytes[0..<count], as: UTF8.self) : nil
    }
}
