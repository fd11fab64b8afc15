@testable import Dashboard
import Foundation
import RowstreamKit
import Synchronization
import Testing

/// The relay's handler (``RelayInbox``) is the same function however often it was read: reading it wrapped it in one
/// more thunk each time when it was kept as a bare function value in the lock, so every demand an instance answered
/// made every later one walk a longer chain (issue 29, found by `Scripts/soak --instances 3`). Measured without a
/// clock: how many frames the stack holds where the handler runs, after one demand and after a thousand (each thunk
/// is a frame; counted by unwinding, so a sanitizer's fake stack frames do not change it).
@Suite struct RelayInboxTests {
    /// How many frames the stack held when the handler last ran.
    final class Depth: Sendable {
        let frames = Atomic<Int>(0)
    }

    @Test func theHandlerRunsAsDeepAfterAThousandDemandsAsAfterOne() throws {
        let inbox = RelayInbox()
        let depth = Depth()
        inbox.handler = { _ in
            depth.frames.store(Thread.callStackReturnAddresses.count, ordering: .relaxed)
            return .accepted
        }
        let session = try #require(SessionID(String(repeating: "a", count: 32)))
        let demand = RelayedDemand(kind: .next, table: "t", session: session)
        func frames() -> Int {
            #expect(inbox.handler?(demand) == .accepted)
            return depth.frames.load(ordering: .relaxed)
        }
        let first = frames()
        // Foundation reports at most 128 frames: the first count must leave room to see a chain grow.
        try #require(first < 100, "the test's own stack is \(first) frames deep")
        for _ in 0..<1_000 { _ = inbox.handler?(demand) }
        let later = frames()
        // A chain grew by at least a frame per demand.
        #expect(later == first, "the handler ran \(later - first) frames deeper after 1,000 demands")
    }

    @Test func aClearedHandlerAnswersNothing() {
        let inbox = RelayInbox()
        inbox.handler = { _ in .accepted }
        inbox.handler = nil
        #expect(inbox.handler == nil)
    }
}
