import Locking

/// The fixed parts of an event body that every stream gets with its own text between each two: a viewer's `session`
/// event is the table's JSON around the viewer's session id. Each part's gzip block is compressed once, here, so a
/// gzip-coded stream's block of a spliced body is those blocks with its own text stored between them (``SplicedBody``):
/// no compressor runs per viewer. Compressing the `session` body and the `rows` head for each arriving gzip viewer
/// cost about 25 µs of an arrival's 60 (`Scripts/bench storm --storm-encoding gzip`).
///
/// Thread-safe: immutable, but for the kept combine operator, behind a `Lock`.
package final class SplicedBodyParts: Sendable {
    /// The parts, the last one ending the event (its data's end and the blank line: ``FramedSSEEvent/appendEnd(to:)``).
    let parts: [[UInt8]]
    /// Each part's block, compressed on its own.
    let blocks: [DeflatedBlock]
    /// The parts' bytes in all.
    let length: Int
    /// `crc32_combine_gen` of the last body's length (a table's session ids are all 32 bytes, so its bodies are all
    /// one length: about 2,000 instructions a viewer, made once).
    private let combineOperator = Lock<(length: Int, combineOperator: UInt)?>(nil)

    /// `parts` (at least one; the last ends the event), compressed now.
    package init(_ parts: [[UInt8]]) {
        precondition(!parts.isEmpty, "a spliced body has at least one part")
        self.parts = parts
        blocks = parts.map { DeflatedBlock(compressing: $0) }
        length = parts.reduce(0) { $0 + $1.count }
    }

    /// `crc32_combine_gen(length)`, kept for the last length asked.
    func combineOperator(length: Int) -> UInt {
        if let kept = combineOperator.withLock({ $0 }), kept.length == length { return kept.combineOperator }
        let made = DeflatedBlock.combineOperator(length: length)
        combineOperator.withLock { $0 = (length, made) }
        return made
    }
}

/// One stream's body of ``SplicedBodyParts``: the parts with `inserted` between each two.
///
/// Thread-safe: a value type.
struct SplicedBody: Sendable {
    let parts: SplicedBodyParts
    let inserted: String

    /// The body as written to a plain stream.
    var bytes: [UInt8] {
        var body: [UInt8] = []
        body.reserveCapacity(parts.length + (parts.parts.count - 1) * inserted.utf8.count)
        for (index, part) in parts.parts.enumerated() {
            if index > 0 { body.append(contentsOf: inserted.utf8) }
            body.append(contentsOf: part)
        }
        return body
    }

    /// The gzip block of `body` (``bytes``, as made): the parts' blocks with `inserted` stored between each two,
    /// the CRC-32 taken over `body` in one pass (cheaper, for a 1 KB body, than combining one CRC per piece).
    func deflated(of body: [UInt8]) -> DeflatedBlock {
        let gaps = parts.blocks.count - 1
        var bytes: [UInt8] = []
        bytes.reserveCapacity(parts.blocks.reduce(0) { $0 + $1.bytes.count } + gaps * (5 + inserted.utf8.count))
        for (index, block) in parts.blocks.enumerated() {
            if index > 0 {
                DeflatedBlock.appendStoredHeader(length: inserted.utf8.count, to: &bytes)
                bytes.append(contentsOf: inserted.utf8)
            }
            bytes += block.bytes
        }
        return DeflatedBlock(deflate: bytes, of: body, combineOperator: parts.combineOperator(length: body.count))
    }
}
