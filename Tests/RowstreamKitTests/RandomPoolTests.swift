import Synchronization
import Testing
@testable import RowstreamKit

/// Session ids' random bytes come from a pool refilled 256 bytes at a time (`RandomPool`): one kernel call per 16 ids,
/// each byte handed out once.
@Suite struct RandomPoolTests {
    @Test func sixteenIdsCostOneRefillAndNoByteIsHandedOutTwice() {
        let refills = Atomic<Int>(0)
        let pool = RandomPool { buffer in
            let round = refills.add(1, ordering: .relaxed).newValue
            // Byte i of refill r is i + 7r: each refill tells which bytes it gave.
            for index in buffer.indices { buffer[index] = UInt8(truncatingIfNeeded: index &+ round &* 7) }
        }
        var handedOut: [[UInt8]] = []
        for _ in 0..<16 {
            var bytes = [UInt8](repeating: 0, count: 16)
            bytes.withUnsafeMutableBytes { pool.fill($0) }
            handedOut.append(bytes)
        }
        #expect(refills.load(ordering: .relaxed) == 1, "256 bytes serve 16 ids of 16")
        #expect(handedOut.joined().elementsEqual((0..<256).map { UInt8(truncatingIfNeeded: $0 + 7) }),
                "each byte of the refill once, in order")
        var next = [UInt8](repeating: 0, count: 16)
        next.withUnsafeMutableBytes { pool.fill($0) }
        #expect(refills.load(ordering: .relaxed) == 2, "the 17th id refills")
        #expect(next == (0..<16).map { UInt8(truncatingIfNeeded: $0 + 14) })
    }

    @Test func aRequestLargerThanWhatIsLeftRefillsRatherThanSplitting() {
        let refills = Atomic<Int>(0)
        let pool = RandomPool { buffer in
            refills.add(1, ordering: .relaxed)
            for index in buffer.indices { buffer[index] = 0xab }
        }
        var bytes = [UInt8](repeating: 0, count: 250)
        bytes.withUnsafeMutableBytes { pool.fill($0) }
        var more = [UInt8](repeating: 0, count: 16)
        more.withUnsafeMutableBytes { pool.fill($0) }
        #expect(refills.load(ordering: .relaxed) == 2)
        #expect(more == [UInt8](repeating: 0xab, count: 16))
    }

    @Test func idsMadeByDefaultComeFromTheSharedPool() {
        // The shared pool holds the kernel's bytes: two ids in a row differ, and neither is all zeros (a consumed byte).
        let first = SessionID.make(), second = SessionID.make()
        #expect(first != second)
        #expect(first.text != String(repeating: "0", count: 32))
    }
}
