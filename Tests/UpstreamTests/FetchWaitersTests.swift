import JSON
import TestSupport
import Testing
@testable import Upstream

/// The waiters of one shared page fetch (``FetchWaiters``): all get the fetch's result at once; one whose task is
/// cancelled stops waiting at once with `.cancelled` (before or while it waits) and the others still get the page; one
/// that comes after the result gets it at once.
@Suite struct FetchWaitersTests {
    static let page = UpstreamPage<JSONValue>(items: [["id": 1]], nextCursor: "n")

    @Test func everyWaiterGetsTheResultAndACancelledOneStopsAtOnce() async throws {
        let waiters = FetchWaiters<JSONValue>()
        let kept = (0..<3).map { _ in Task { await waiters.wait() } }
        let leaving = Task { await waiters.wait() }
        #expect(await eventually { waiters.count == 4 })
        leaving.cancel()
        guard case .failure(.cancelled) = await leaving.value else {
            Issue.record("a cancelled waiter waits on")
            return
        }
        #expect(waiters.count == 3)
        waiters.finish(.success(Self.page))
        for waiter in kept {
            guard case .success(let page) = await waiter.value else { Issue.record("no page"); continue }
            #expect(page.items == Self.page.items)
        }
        // After the result: at once.
        guard case .success = await waiters.wait() else { Issue.record("a late waiter got no page"); return }
    }

    @Test func aWaiterCancelledBeforeItWaitsNeverWaits() async {
        let waiters = FetchWaiters<JSONValue>()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await waiters.wait()
        }
        guard case .failure(.cancelled) = await task.value else {
            Issue.record("a cancelled task waited")
            return
        }
        #expect(waiters.count == 0)
    }
}
