import Sealing
import Testing
@testable import RowstreamKit

/// Issue 17 (memory per idle stream): a loaded position stays open in the session (its token), its sealed text is
/// handed to the batch's event and then dropped; it stands for the same place as the sealed form a client holds.
@Suite struct OpenPositionTests {
    struct Walk: Codable, Sendable, Equatable {
        var cursor: String
        var window: [UInt64]
    }

    static let keys = try! SealingKeys(current: Array(repeating: 7, count: 32))
    let codec = TokenCodec<Walk>(seal: Self.keys, scope: "resume:t")
    let walk = Walk(cursor: "page-2", window: Array(0..<64))

    @Test func keptOpenSealedOnDemandTheSameWay() throws {
        let position = try codec.position(of: walk)
        guard case .open(let open) = position else { Issue.record("not kept open: \(position)"); return }
        let sealed = try #require(position.sealed)
        #expect(Self.keys.open(sealed, scope: "resume:t") != nil)
        open.forgetSealed()
        let again = try #require(position.sealed, "sealed again after the event took it")
        #expect(try codec.token(at: .cursor(again), initial: Walk(cursor: "", window: [])) == walk)
        // Loading from it takes its token as it is; from its sealed form, the same token.
        #expect(try codec.token(at: position, initial: Walk(cursor: "", window: [])) == walk)
        #expect(try codec.token(at: .cursor(sealed), initial: Walk(cursor: "", window: [])) == walk)
    }

    @Test func aSharedPositionKeepsOneSealedText() throws {
        let position = try codec.position(of: walk)
        guard case .open(let open) = position else { Issue.record("not kept open: \(position)"); return }
        open.forgetSealed()
        open.markShared()
        let sealed = try #require(position.sealed)
        open.forgetSealed()
        let again = try #require(position.sealed)
        #expect(again == sealed)
        #expect(Self.storage(again) == Self.storage(sealed), "the kept text for every viewer, not sealed anew")
    }

    /// Where a (native, long) string's bytes are: the same text sealed twice lives in two buffers.
    static func storage(_ text: String) -> UnsafeRawPointer? {
        var text = text
        return text.withUTF8 { UnsafeRawPointer($0.baseAddress) }
    }

    @Test func equalWhenTheyStandForTheSameToken() throws {
        let a = try codec.position(of: walk)
        let b = try codec.position(of: walk)
        let other = try codec.position(of: Walk(cursor: "page-3", window: []))
        #expect(a == b)
        #expect(a == .cursor(try #require(b.sealed)), "open and sealed forms of one token")
        #expect(a != other)
        #expect(a != .first)
        let elsewhere = TokenCodec<Walk>(seal: Self.keys, scope: "resume:u")
        #expect(a != (try elsewhere.position(of: walk)), "another table's token")
    }

    @Test func anotherTablesOpenPositionIsOpenedFromItsSealedForm() throws {
        let elsewhere = TokenCodec<Walk>(seal: Self.keys, scope: "resume:u")
        #expect(throws: LoadFailure.self) {
            try codec.token(at: try elsewhere.position(of: walk), initial: Walk(cursor: "", window: []))
        }
    }
}
