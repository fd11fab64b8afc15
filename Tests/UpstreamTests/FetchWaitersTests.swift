import JSON
import Locking
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

    /// A callback waiter (no task): called once with the result, on the thread that finishes the fetch; a stopped one
    /// never; one registered after the result registers nothing and gets the result back at once.
    @Test func aCallbackGetsTheResultOnceAndAStoppedOneNever() {
        let waiters = FetchWaiters<JSONValue>()
        let got = Lock<[String]>([])
        guard case .registered = waiters.whenFinished({ result in got.withLock { $0.append("kept \(result)") } }),
              case .registered(let stop) = waiters.whenFinished({ _ in got.withLock { $0.append("stopped") } }) else {
            Issue.record("not registered before the result")
            return
        }
        #expect(waiters.count == 2)
        stop()
        #expect(waiters.count == 1)
        waiters.finish(.failure(.httpStatus(502)))
        #expect(got.withLock { $0 } == ["kept failure(the upstream answered HTTP 502)"])
        guard case .finished(.failure(.httpStatus(502))) = waiters.whenFinished({ _ in got.withLock { $0.append("late") } })
        else {
            Issue.record("a late callback was registered")
            return
        }
        waiters.finish(.failure(.httpStatus(502)))  // not called twice, and the late one never
        #expect(got.withLock { $0 }.count == 1)
    }
}
