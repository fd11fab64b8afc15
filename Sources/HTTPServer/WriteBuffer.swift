/// A connection's outgoing bytes: appended at the end, sent from the front.
/// Thread rules: a value confined to its connection's loop.
struct WriteBuffer {
    private var bytes: [UInt8] = []
    private var sentOffset = 0

    /// Bytes of storage held (for tests proving memory does not grow with the bytes sent).
    var storageCapacity: Int { bytes.capacity }

    /// Unsent byte count.
    var count: Int { bytes.count - sentOffset }

    mutating func append(_ more: some Collection<UInt8>) {
        bytes.append(contentsOf: more)
    }

    /// Calls `body` with the unsent bytes; returns what it returns.
    func withUnsentBytes<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R {
        bytes.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[sentOffset...])) }
    }

    /// Marks `sent` bytes as sent; compacts so memory does not grow with the total sent.
    mutating func consume(_ sent: Int) {
        sentOffset += sent
        if sentOffset == bytes.count {
            bytes.removeAll(keepingCapacity: bytes.capacity <= 256 * 1024)
            sentOffset = 0
        } else if sentOffset >= 64 * 1024, sentOffset * 2 >= bytes.count {
            bytes.removeFirst(sentOffset)
            sentOffset = 0
        }
    }
}
