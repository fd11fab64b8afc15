import Glibc

/// Grows the process's table of open descriptors once, at start, to hold as many as the server may open.
///
/// Linux grows the table by doubling (256, 512, ... 32,768 slots) when a new descriptor does not fit, and in a
/// process with more than one thread each growth first waits for an RCU grace period (`expand_fdtable`): 10 to 40 ms
/// during which the `accept4` that needed the slot blocks. In a storm of arrivals (`Scripts/bench storm`) loop 0's
/// accepting stopped for 39 ms at descriptor 512, and again at 1,024, 2,048 and 4,096; at 50,000 handshakes a second
/// the backlog (4,096) overflowed, the kernel dropped handshakes (`ListenOverflows`) and their clients sent them again a
/// second later: about one storm in five took 1.2 or 2.2 s instead of 0.45. A single-threaded server (an nginx
/// worker) grows its table with no wait. Growing it once at start costs one grace period then, and 8 bytes of kernel
/// memory a slot (about 256 KB at 20,000 descriptors).
///
/// Thread rules: call from any thread, at start.
enum DescriptorTable {
    /// The most slots reserved, whatever the limits (one growth past it costs one grace period each doubling).
    static let mostSlots = 1 << 17

    /// Slots to reserve for a server opening at most `maxConnections` connections under an open-file soft limit of
    /// `openFileLimit`: its connections and ``HTTPServerConfiguration/reservedDescriptors``, within the limit and
    /// ``mostSlots``.
    static func slots(maxConnections: Int, openFileLimit: rlim_t) -> Int {
        let limit = openFileLimit >= rlim_t(mostSlots) ? mostSlots : Int(openFileLimit)
        let wanted = maxConnections >= mostSlots ? mostSlots : maxConnections + HTTPServerConfiguration.reservedDescriptors
        return min(wanted, limit)
    }

    /// Makes the table hold descriptor `slots - 1`: duplicates `fd` at the lowest free number at least that high, then
    /// closes the duplicate (the table does not shrink). Returns the number it had, or nil when none was opened (the
    /// table was large enough already, or the limit refused it).
    @discardableResult
    static func reserve(_ slots: Int, duplicating fd: Int32) -> Int32? {
        let target = Int32(clamping: slots - 1)
        guard target > fd else { return nil }
        let high = fcntl(fd, F_DUPFD_CLOEXEC, target)
        guard high >= 0 else { return nil }
        close(high)
        return high
    }

    /// The open-file soft limit (`RLIMIT_NOFILE`), or nil when it cannot be read.
    static func openFileLimit() -> rlim_t? {
        var limit = rlimit()
        return getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 ? limit.rlim_cur : nil
    }
}
