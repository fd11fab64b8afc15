import Locking
import TestSupport
import Testing
@testable import Batches

/// ``BatchesDataSource/loadNextOnCaller()`` asks the in-memory loader first (issue 29, arrivals): its answer is the
/// load's outcome at once, delivered before the call returns with no task and no timer; `.absent` lets the loader load
/// as before. A promise (`.pending`: the page is being fetched) makes the load wait for its callback with no task and
/// with its timeout; the callback's batch or failure is the outcome, its nil starts the loader, in either order with
/// the promise's own return. Only the caller's load asks it, and a reload with another loader drops it.
@Suite struct DataSourceInMemoryTests {
    /// Counts the calls of the async loader and of the in-memory one, and keeps a promise's callback. Thread-safe.
    final class Calls: Sendable {
        let loads = Lock<[String]>([])
        let inMemory = Lock<[String]>([])
        let callback = Lock<(@Sendable (@escaping Landed<LoadResult<Int, String>?, any Error>) -> Void)?>(nil)
        /// Calls the kept callback with `outcome`, as a fetch landing does; returns whether one was kept.
        @discardableResult
        func land(_ outcome: Result<LoadResult<Int, String>?, any Error>) -> Bool {
            guard let callback = callback.withLock({ $0 }) else { return false }
            callback { outcome }
            return true
        }
        let stops = Lock(0)
    }

    /// What the in-memory loader answers.
    enum Memory {
        case ready, absent, pending
        /// Promises the batch, but calls back with `outcome` before it returns (the page landed meanwhile).
        case pendingAfter(Result<LoadResult<Int, String>?, any Error>)
    }

    static func source(_ calls: Calls, memory: Memory, clock: ManualClock = ManualClock(),
                       recorder: EventRecorder<Int, String>) -> BatchesDataSource<Int, String> {
        BatchesDataSource<Int, String>(
            initialToken: "a", clock: clock,
            loader: { token in
                calls.loads.withLock { $0.append(token) }
                return .items([10], next: "b")
            },
            inMemory: { token, whenFetched in
                calls.inMemory.withLock { $0.append(token) }
                let stop: @Sendable () -> Void = { calls.stops.withLock { $0 += 1 } }
                switch memory {
                case .ready:
                    return .ready(.items([1, 2], next: "m"))
                case .absent:
                    return .absent
                case .pending:
                    guard let whenFetched else { return .absent }  // asked without a callback: only what is held now
                    calls.callback.withLock { $0 = whenFetched }
                    return .pending(stop: stop)
                case .pendingAfter(let outcome):
                    guard let whenFetched else { return .absent }
                    whenFetched { outcome }
                    return .pending(stop: stop)
                }
            },
            onEvent: recorder.onEvent)
    }

    @Test func anAnswerFromMemoryIsDeliveredBeforeTheCallReturnsWithNoLoad() {
        let calls = Calls(), recorder = EventRecorder<Int, String>(), clock = ManualClock()
        let source = Self.source(calls, memory: .ready, clock: clock, recorder: recorder)
        source.loadNextOnCaller()
        #expect(recorder.events == [.loading(offset: 0), .batch(items: [1, 2], offset: 0, next: "m")])
        #expect(calls.inMemory.withLock { $0 } == ["a"])
        #expect(calls.loads.withLock { $0 }.isEmpty, "the async loader was not asked")
        #expect(clock.scheduledCount == 0, "no timeout armed")
        #expect(source.snapshot.nextToken == "m" && !source.snapshot.isLoading)
        // Asked once: the next load on the caller is the loader's (an idle viewer keeps no in-memory loader).
        source.loadNextOnCaller()
        #expect(calls.inMemory.withLock { $0 } == ["a"])
        #expect(calls.loads.withLock { $0 } == ["m"])
    }

    @Test func noAnswerFromMemoryLeavesTheLoadToTheLoader() {
        let calls = Calls(), recorder = EventRecorder<Int, String>()
        let source = Self.source(calls, memory: .absent, recorder: recorder)
        source.loadNextOnCaller()
        #expect(calls.inMemory.withLock { $0 } == ["a", "a"], "asked, then asked with a callback")
        #expect(calls.loads.withLock { $0 } == ["a"])
        #expect(recorder.events == [.loading(offset: 0), .batch(items: [10], offset: 0, next: "b")])
    }

    @Test func onlyTheCallersLoadAsksAndAReloadWithAnotherLoaderDropsIt() async throws {
        let calls = Calls(), recorder = EventRecorder<Int, String>()
        let source = Self.source(calls, memory: .ready, recorder: recorder)
        source.loadNext()  // not on the caller: the loader, in a task
        #expect(await eventually { recorder.events.count == 2 })
        #expect(calls.inMemory.withLock { $0 }.isEmpty)
        #expect(calls.loads.withLock { $0 } == ["a"])
        source.reload(with: { token in
            calls.loads.withLock { $0.append("new " + token) }
            return .items([20], next: "c")
        })
        #expect(await eventually { recorder.events.count == 5 })  // reset, loading, batch
        source.loadNextOnCaller()
        #expect(calls.inMemory.withLock { $0 }.isEmpty, "the old loader's memory is not the new one's")
        #expect(calls.loads.withLock { $0 } == ["a", "new a", "new c"])
    }

    @Test func aPromisedBatchWaitsWithNoTaskAndItsTimeoutThenIsDelivered() async throws {
        let calls = Calls(), recorder = EventRecorder<Int, String>(), clock = ManualClock()
        let source = Self.source(calls, memory: .pending, clock: clock, recorder: recorder)
        source.loadNextOnCaller()
        #expect(recorder.events == [.loading(offset: 0)])
        #expect(clock.pendingDelays.count == 1, "its timeout armed")
        // The page lands on another thread.
        #expect(await Task.detached { calls.land(.success(.items([1, 2], next: "m"))) }.value)
        #expect(recorder.events == [.loading(offset: 0), .batch(items: [1, 2], offset: 0, next: "m")])
        #expect(calls.loads.withLock { $0 }.isEmpty, "the async loader was not asked")
        #expect(clock.pendingDelays.isEmpty, "its timeout cancelled")
        #expect(calls.stops.withLock { $0 } == 1, "the flight's stop, called once it ended (a no-op after the callback)")
    }

    @Test func aPromisesFailureIsTheLoadsAndNilStartsTheLoader() async {
        let recorder = EventRecorder<Int, String>(), clock = ManualClock()
        let failing = Calls()
        let source = Self.source(failing, memory: .pending, clock: clock, recorder: recorder)
        source.loadNextOnCaller()
        failing.land(.failure(LoadFailure(message: "upstream down", isRetryable: true)))
        #expect(recorder.events == [.loading(offset: 0),
                                    .failed(LoadFailure(message: "upstream down", isRetryable: true), offset: 0)])
        #expect(failing.loads.withLock { $0 }.isEmpty, "the fetch's failure is the load's: no second fetch")

        let unanswered = Calls(), second = EventRecorder<Int, String>()
        let other = Self.source(unanswered, memory: .pending, clock: clock, recorder: second)
        other.loadNextOnCaller()
        let timeout = clock.pendingDelays
        unanswered.land(.success(nil))
        #expect(await eventually { second.events.count == 2 })
        #expect(unanswered.loads.withLock { $0 } == ["a"], "memory could not answer: the loader loads it (in a task)")
        #expect(second.events == [.loading(offset: 0), .batch(items: [10], offset: 0, next: "b")])
        #expect(timeout.count == 1, "the waiting load's timeout")
        #expect(await eventually { clock.pendingDelays.isEmpty }, "its task kept that timeout, then stopped it")
        #expect(clock.scheduledCount == 2, "one timer each load, none armed again for the task")
    }

    /// The callback may come before the promise is returned (the fetch finished on another thread meanwhile): each
    /// outcome still ends the load once, and no timer or flight is left behind.
    @Test(arguments: [0, 1, 2]) func aCallbackBeforeThePromiseReturnsEndsTheLoadOnce(_ which: Int) async throws {
        let outcomes: [Result<LoadResult<Int, String>?, any Error>] = [
            .success(.items([1, 2], next: "m")), .failure(LoadFailure(message: "down", isRetryable: true)), .success(nil),
        ]
        let calls = Calls(), recorder = EventRecorder<Int, String>(), clock = ManualClock()
        let source = Self.source(calls, memory: .pendingAfter(outcomes[which]), clock: clock, recorder: recorder)
        source.loadNextOnCaller()
        #expect(await eventually { recorder.events.count == 2 })
        let expected: BatchesEvent<Int, String> = switch which {
        case 0: .batch(items: [1, 2], offset: 0, next: "m")
        case 1: .failed(LoadFailure(message: "down", isRetryable: true), offset: 0)
        default: .batch(items: [10], offset: 0, next: "b")
        }
        #expect(recorder.events == [.loading(offset: 0), expected])
        #expect(calls.loads.withLock { $0 } == (which == 2 ? ["a"] : []))
        #expect(await eventually { clock.pendingDelays.isEmpty }, "no timeout left armed")
        #expect(!source.snapshot.isLoading)
    }

    @Test func aPromiseThatNeverComesTimesOutAndAReloadStopsIt() throws {
        let calls = Calls(), recorder = EventRecorder<Int, String>(), clock = ManualClock()
        let source = Self.source(calls, memory: .pending, clock: clock, recorder: recorder)
        source.loadNextOnCaller()
        let timeout = try #require(clock.pendingDelays.first)
        clock.advance(by: timeout)
        #expect(recorder.events == [.loading(offset: 0), .failed(.timedOut, offset: 0)])
        #expect(calls.stops.withLock { $0 } == 1, "the timed-out load stops waiting")
        // A late callback is stale.
        let made = Lock(false)
        calls.callback.withLock { $0 }? { made.withLock { $0 = true }; return .success(.items([1, 2], next: "m")) }
        #expect(recorder.events.count == 2)
        #expect(!made.withLock { $0 }, "a stale callback makes nothing")

        let reloaded = Calls(), second = EventRecorder<Int, String>()
        let other = Self.source(reloaded, memory: .pending, clock: clock, recorder: second)
        other.loadNextOnCaller()
        other.reload()
        #expect(reloaded.stops.withLock { $0 } == 1, "a reload stops the waiting load")
    }
}
