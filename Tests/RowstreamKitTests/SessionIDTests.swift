import Foundation
import Testing
@testable import RowstreamKit

/// Session ids: 32 lowercase hex digits in and out, anything else refused.
@Suite struct SessionIDTests {
    @Test func anIdRoundTripsThroughItsText() throws {
        for _ in 0..<100 {
            let id = SessionID.make()
            #expect(id.text.utf8.count == 32)
            #expect(id.text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) })
            #expect(SessionID(id.text) == id)
        }
    }

    @Test("an instance tag is the first two hex digits; the rest stays random")
    func anInstanceTagLeadsTheId() throws {
        var rests: Set<String> = []
        for tag: UInt8 in [0, 0x0a, 0xff] {
            for _ in 0..<50 {
                let id = SessionID.make(tag: tag)
                #expect(id.text.hasPrefix(String(format: "%02x", tag)))
                #expect(SessionID(id.text) == id)
                rests.insert(String(id.text.dropFirst(2)))
            }
        }
        #expect(rests.count == 150, "120 random bits: no two ids alike")
    }

    @Test("an id's 16 random bytes come from one call of the generator (one getrandom), not one per 8 bytes")
    func oneRandomCallPerId() {
        var calls: [Int] = []
        let id = SessionID.make(tag: 0x0a) { buffer in
            calls.append(buffer.count)
            for index in buffer.indices { buffer[index] = UInt8(index + 1) }
        }
        #expect(calls == [16])
        #expect(id.text == "0a07060504030201100f0e0d0c0b0a09", "two little-endian words, the tag on top")
        var filled = [UInt8](repeating: 0, count: 16)
        filled.withUnsafeMutableBytes { SessionID.systemRandom($0) }
        #expect(filled != [UInt8](repeating: 0, count: 16), "the kernel's bytes")
    }

    @Test func leadingZerosAndEveryDigitAreRead() throws {
        let text = "000000000000000f0123456789abcdef"
        #expect(SessionID(text)?.text == text)
    }

    @Test(arguments: ["", "0123456789abcdef0123456789abcde", "0123456789abcdef0123456789abcdef0",
                      "0123456789ABCDEF0123456789abcdef", "0123456789abcdeg0123456789abcdef", "../../../../../../../../../../.."])
    func anythingElseIsRefused(_ text: String) {
        #expect(SessionID(text) == nil)
    }
}
