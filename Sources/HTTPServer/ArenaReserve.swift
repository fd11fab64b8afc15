import Glibc

/// Grows the calling thread's malloc heap once, up front, so that a storm of arrivals does not grow it a page at a
/// time.
///
/// glibc gives each busy thread an arena of its own, whose heap is one reserved 64 MB mapping made writable as it
/// grows: one `mprotect` per growth, a page or a few each time (a storm of 10,000 arrivals on a fresh loop made about
/// 6,000). The writable mark is kept when freed memory goes back to the system (`madvise`, ``FreedMemoryReturn``), so
/// growing the heap here once, at the loop's start, spares every later growth up to it its `mprotect`: the blocks are
/// allocated and freed at once, and only their headers are touched (resident memory grew by 0.1 MB; a storm's server
/// CPU fell by about 0.5 µs an arrival, `Scripts/bench storm`).
///
/// Thread rules: reserves the arena of the thread that calls it (each event loop calls it as it starts).
enum ArenaReserve {
    /// Most of a thread heap's 64 MB.
    static let bytes = 56 << 20
    /// Under glibc's mmap threshold (128 KB): each block comes from the arena's heap, not a mapping of its own.
    static let block = 64 << 10

    static func reserve(bytes: Int = bytes) {
        var blocks: [UnsafeMutableRawPointer?] = []
        blocks.reserveCapacity(bytes / block)
        for _ in 0..<(bytes / block) { blocks.append(malloc(block)) }
        for pointer in blocks { free(pointer) }
    }
}
