import Sealing
import Testing
@testable import RowstreamKit

/// What goes through Redis between instances (docs/SCALING.md, "Any instance answers any request"): demands and
/// answers read back as written under the same store key, and nothing else: an altered byte, another key, a cut
/// message or an answer read as a demand is nothing.
@Suite struct RelayMessageTests {
    static let demand = RelayMessage.Demand(
        addressee: 0x0100_abcd, sender: 0x02ff_0001, request: 0x0123_4567_89ab_cdef,
        body: RelayedDemand(kind: .reload, table: "orders", session: SessionID.make(instance: 0x0100_abcd),
                              choice: ["sort": "city", "status": ""]))

    @Test("a demand and an answer read back as written")
    func roundTrip() {
        let key = StoreKey.random()
        #expect(RelayMessage.decode(RelayMessage.encode(Self.demand, key: key), key: key) == .demand(Self.demand))
        let answer = RelayMessage.Answer(addressee: 7, sender: 0x0100_abcd, request: 42, body: .ended)
        #expect(RelayMessage.decode(RelayMessage.encode(answer, key: key), key: key) == .answer(answer))
    }

    @Test("a Redis writer forges nothing: any altered byte, another key or a cut message reads as nothing")
    func forgeries() {
        let key = StoreKey.random()
        let bytes = RelayMessage.encode(Self.demand, key: key)
        for index in bytes.indices {
            var altered = bytes
            altered[index] ^= 0x01
            #expect(RelayMessage.decode(altered, key: key) == nil, "byte \(index) altered")
        }
        #expect(RelayMessage.decode(bytes, key: StoreKey.random()) == nil)
        #expect(RelayMessage.decode(RelayMessage.encode(Self.demand, key: StoreKey.random()), key: key) == nil)
        #expect(RelayMessage.decode(Array(bytes.dropLast()), key: key) == nil)
        #expect(RelayMessage.decode([], key: key) == nil)
    }

    @Test("a session id made for an instance carries it in its first 32 bits, the first byte its tag; 96 bits random")
    func instanceIDs() {
        var rests: Set<String> = []
        for _ in 0..<100 {
            let id = SessionID.make(instance: 0x2a00_0f0f)
            #expect(id.instance == 0x2a00_0f0f && id.text.hasPrefix("2a000f0f"))
            #expect(SessionID(id.text) == id)
            rests.insert(String(id.text.dropFirst(8)))
        }
        #expect(rests.count == 100)
    }
}
