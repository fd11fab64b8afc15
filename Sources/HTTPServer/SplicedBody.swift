import Locking

/// The fixed parts of an event body that every stream gets with its own text between each two: a viewer's `session`
/// event is the table's JSON around the viewer's session id. Each part's gzip block is compressed once, here, so a
/// gzip-coded stream's block of a spliced body is those blocks with its own text stored between them: no compressor
/// runs per viewer. Compressing the `session` body and the `rows` head for each arriving gzip viewer cost about 30 of
/// an arrival's 65 µs (`Scripts/bench storm --storm-encoding gzip`).
///
/// An event holds only this (one reference, ``FramedSSEEvent/init(headOf:splicing:with:)``): its own text is read
/// back from its body, which holds it at known places.
///
/// Thread-safe: immutable, but for the kept combine operator, behind a `Lock`.
package final class SplicedBodyParts: Sendable {
    /// The parts, the last one ending the event (its data's end and the blank line: ``FramedSSEEvent/appendEnd(to:)``).
    let parts: [[UInt8]]
    /// Each part's block, compressed on its own.
    let blocks: [DeflatedBlock]
    /// The parts' bytes in all.
    let length: Int
    /// The blocks' bytes in all.
    private let blocksLength: Int
    /// `crc32_combine_gen` of the last body's length (a table's session ids are all 32 bytes, so its bodies are all
    /// one length: about 2,000 instructions a viewer, made once).
    private let combineOperator = Lock<(length: Int, combineOperator: UInt)?>(nil)

    /// `parts` (at least one; the last ends the event), compressed now.
    package init(_ parts: [[UInt8]]) {
        precondition(!parts.isEmpty, "a spliced body has at least one part")
        self.parts = parts
        blocks = parts.map { DeflatedBlock(compressing: $0) }
        length = parts.reduce(0) { $0 + $1.count }
        blocksLength = blocks.reduce(0) { $0 + $1.bytes.count }
    }

    /// The body: the parts with `text` between each two.
    func body(with text: String) -> [UInt8] {
        var body: [UInt8] = []
        body.reserveCapacity(length + (parts.count - 1) * text.utf8.count)
        for (index, part) in parts.enumerated() {
            if index > 0 { body.append(contentsOf: text.utf8) }
            body.append(contentsOf: part)
        }
        return body
    }

    /// The gzip block of `body` (made by ``body(with:)``): the parts' blocks with the text stored between each two,
    /// the CRC-32 taken over `body` in one pass (cheaper, for a 1 KB body, than combining one CRC per piece).
    func deflated(of body: [UInt8]) -> DeflatedBlock {
        let gaps = parts.count - 1
        let textLength = gaps == 0 ? 0 : (body.count - length) / gaps
        precondition(textLength >= 0 && length + gaps * textLength == body.count, "a body made from these parts")
        var bytes: [UInt8] = []
        bytes.reserveCapacity(blocksLength + gaps * (5 + textLength))
        var offset = 0  // where the next part starts in `body`
        for (index, block) in blocks.enumerated() {
            if index > 0 {
                DeflatedBlock.appendStoredHeader(length: textLength, to: &bytes)
                bytes += body[offset..<(offset + textLength)]
                offset += textLength
            }
            bytes += block.bytes
            offset += parts[index].count
        }
        return DeflatedBlock(deflate: bytes, of: body, combineOperator: combineOperator(length: body.count))
    }

    /// `crc32_combine_gen(length)`, kept for the last length asked.
    private func combineOperator(length: Int) -> UInt {
        if let kept = combineOperator.withLock({ $0 }), kept.length == length { return kept.combineOperator }
        let made = DeflatedBlock.combineOperator(length: length)
        combineOperator.withLock { $0 = (length, made) }
        return made
    }
}
