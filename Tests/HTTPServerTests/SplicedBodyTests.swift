import Testing
import TestSupport
@testable import HTTPServer

/// A body of fixed parts with a stream's own text between them (``SplicedBodyParts``, a viewer's `session` event):
/// its plain bytes are the parts joined with the text, and its gzip block is the parts' blocks, compressed once,
/// with the text stored between them, decoding (CRC-32 and length checked by the trailer) to those very bytes. A
/// head marked shared gets one block for every stream.
@Suite struct SplicedBodyTests {
    static let parts: [[UInt8]] = [
        Array(#"{"next":"/tables/t/sessions/"#.utf8),
        Array(#"/next","columns":["#.utf8) + Array(String(repeating: #"{"field":"name","format":"text"},"#, count: 20).utf8)
            + Array(#"{}],"session":""#.utf8),
        Array("\"}\n\n".utf8),
    ]
    static let id = "0123456789abcdef0123456789abcdef"

    /// `blocks` as one gzip member: header, blocks, final block and trailer.
    static func member(_ blocks: [DeflatedBlock]) -> [UInt8] {
        var stream = GzipStream()
        for block in blocks { stream.append(block) }
        return GzipStream.header + blocks.flatMap(\.bytes) + stream.trailer
    }

    @Test func theBodyIsThePartsJoinedAndItsBlockDecodesToItWithThePartsCompressedOnce() throws {
        let parts = SplicedBodyParts(Self.parts)
        let template = FramedSSEEvent(event: "session", id: nil, body: [])
        let event = FramedSSEEvent(headOf: template, splicing: parts, with: Self.id)
        #expect(event.body == Array(Self.parts.joined(separator: Array(Self.id.utf8))))
        #expect(event.head == template.head)

        let head = try #require(event.deflatedHead)
        let body = event.deflatedBody
        let decoder = GzipDecoder()
        #expect(try decoder.feed(Self.member([head, body])) == event.bytes)
        #expect(decoder.isFinished, "the trailer's CRC-32 and length match the bytes")
        #expect(body.count == event.body.count)

        // The parts' own blocks, as they are, with the id stored (5 bytes of framing) between each two.
        let stored = [0, 32, 0, 0xdf, 0xff] + Array(Self.id.utf8)
        let blocks = parts.blocks.map(\.bytes)
        #expect(body.bytes == Array(blocks.joined(separator: stored)))
        #expect(blocks[1].count < Self.parts[1].count / 2, "the long part is compressed, not stored")
    }

    @Test func anotherTextGivesItsOwnBodyFromTheSameBlocks() throws {
        let parts = SplicedBodyParts(Self.parts)
        let template = FramedSSEEvent(event: "session", id: nil, body: [])
        for id in [Self.id, "fedcba9876543210fedcba9876543210", ""] {
            let event = FramedSSEEvent(headOf: template, splicing: parts, with: id)
            let decoder = GzipDecoder()
            #expect(try decoder.feed(Self.member([event.deflatedBody])) == Array(Self.parts.joined(separator: Array(id.utf8))))
            #expect(decoder.isFinished)
        }
    }

    @Test func aSharedHeadHasOneBlockAndAnOwnHeadIsCompressedEachTime() throws {
        var body = Array(String(repeating: "<tr><td>row</td></tr>", count: 20).utf8)
        FramedSSEEvent.appendEnd(to: &body)
        let id = String(repeating: "token", count: 40)
        let own = FramedSSEEvent(event: "rows", id: id, body: body)
        let shared = own.withSharedHead()
        #expect(shared.bytes == own.bytes)
        func storage(_ block: DeflatedBlock?) -> UnsafeRawPointer? { block?.bytes.withUnsafeBytes { $0.baseAddress } }
        let first = try #require(shared.deflatedHead), again = try #require(shared.deflatedHead)
        #expect(storage(first) == storage(again), "made once, kept")
        #expect(first.bytes == (try #require(own.deflatedHead)).bytes)
        let ownFirst = own.deflatedHead, ownAgain = own.deflatedHead  // both held: one storage cannot be reused
        #expect(storage(ownFirst) != storage(ownAgain), "an own head: compressed per stream")
        let decoder = GzipDecoder()
        #expect(try decoder.feed(Self.member([first, shared.deflatedBody])) == shared.bytes)
        #expect(decoder.isFinished)
        #expect(shared.retagged(event: "rows", id: "other").headIsShared == false, "a new head is its own")
    }
}

extension SplicedBodyTests {
    /// A stream's CRC-32 and length come out the same whether a block is combined in (its kept operator) or, short,
    /// run through the CRC itself (``GzipStream/append(_:of:)``), on both sides of ``GzipStream/directCRCLimit``.
    @Test func shortAndLongBlocksGiveTheTrailerEitherWay() throws {
        let limit = GzipStream.directCRCLimit
        for count in [0, 1, limit - 1, limit, limit + 1, 4 * limit] {
            let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
            let block = DeflatedBlock(compressing: bytes)
            #expect((block.combineOperator == 0) == (count <= limit), "\(count): operator kept only past the limit")
            var direct = GzipStream(), combined = GzipStream()
            direct.append(block, of: bytes)
            combined.append(block)
            #expect(direct.trailer == combined.trailer, "\(count) bytes")
            let decoder = GzipDecoder()
            #expect(try decoder.feed(GzipStream.header + block.bytes + direct.trailer) == bytes)
            #expect(decoder.isFinished, "\(count) bytes: the trailer checks")
        }
    }
}
