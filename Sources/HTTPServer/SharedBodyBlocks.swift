import Locking

/// The gzip blocks of event bodies and heads that many streams carry (``FramedSSEEvent/bodyIsShared``: a batch many
/// viewers get at the same place, rendered once; ``FramedSSEEvent/headIsShared``: that batch's `rows` head kept for
/// the viewers who come next, the `session` and `loading` heads; the default `retry:` field), so each is compressed
/// once for all its gzip viewers rather than once per viewer. A body is found by its array's storage, never by
/// content: an entry holds its body, so no other array can have that storage while it is kept. Bounded: the last
/// ``capacity`` arrays (their blocks and the arrays themselves; a shared body is at most a batch's event), the
/// oldest out first.
///
/// Thread-safe: the entries are behind a lock; compressing happens outside it (two threads may both compress a new
/// body once; the blocks are equal, either is kept).
final class SharedBodyBlocks: Sendable {
    private struct Entry: Sendable {
        let body: [UInt8]
        let block: DeflatedBlock
    }
    private let entries = Lock<[Entry]>([])
    private let capacity: Int

    init(capacity: Int) { self.capacity = capacity }

    /// How many bodies are kept (tests).
    var count: Int { entries.withLock { $0.count } }

    /// The process's cache.
    static let shared = SharedBodyBlocks(capacity: 32)

    /// The block of `body`: the kept one if this very array was compressed lately, else compressed now and kept.
    func block(for body: [UInt8]) -> DeflatedBlock {
        if let found = entries.withLock({ entries in
            entries.lastIndex { Self.sameStorage($0.body, body) }.map { entries[$0].block }
        }) {
            return found
        }
        let block = DeflatedBlock(compressing: body)
        entries.withLock { entries in
            guard !entries.contains(where: { Self.sameStorage($0.body, body) }) else { return }
            if entries.count >= capacity { entries.removeFirst() }
            entries.append(Entry(body: body, block: block))
        }
        return block
    }

    /// True if `a` and `b` are the same array storage (copies of one array value), not merely equal bytes.
    private static func sameStorage(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        a.count == b.count && a.withUnsafeBufferPointer { x in b.withUnsafeBufferPointer { y in x.baseAddress == y.baseAddress } }
    }
}
