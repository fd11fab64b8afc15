import Testing
@testable import RowstreamKit

/// A head's bytes in the shared log (``LiveHeadRows/bytes``): read back exactly; damaged bytes are refused.
@Suite struct LiveHeadBytesTests {
    static let head = LiveHeadRows(rows: [
        LiveRow(key: "k1", html: Array("<tr data-key=\"k1\"><td>é & <b></td></tr>".utf8)),
        LiveRow(key: "", html: []),
        LiveRow(key: "ключ", html: [0, 255, 10, 13]),
    ], isWholeList: true)

    @Test func roundTrip() {
        #expect(LiveHeadRows(bytes: Self.head.bytes) == Self.head)
        let empty = LiveHeadRows(rows: [], isWholeList: false)
        #expect(LiveHeadRows(bytes: empty.bytes) == empty)
    }

    @Test("every cut, a trailing byte, another version, a length past the end: refused")
    func damagedIsRefused() {
        let bytes = Self.head.bytes
        for length in 0..<bytes.count { #expect(LiveHeadRows(bytes: Array(bytes.prefix(length))) == nil) }
        #expect(LiveHeadRows(bytes: bytes + [0]) == nil)
        #expect(LiveHeadRows(bytes: [2] + bytes.dropFirst()) == nil)
        #expect(LiveHeadRows(bytes: [1, 2, 0, 0, 0, 0]) == nil, "whole-list flag other than 0 or 1")
        #expect(LiveHeadRows(bytes: [1, 0, 0, 0, 0, 1, 255, 255, 255, 255]) == nil)
    }
}
