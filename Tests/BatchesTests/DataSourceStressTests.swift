import Synchronization
import TestSupport
import Testing
@testable import Batches

@Suite struct DataSourceStressTests {
    static let pageSize = 3
    static let lastPage = 6

    @Test(arguments: 0..<4)
    func eventsStayInOrderUnderConcurrentLoadNextAndReload(round: Int) async throws {
        let calls = Atomic<Int>(0)
        let recorder = EventRecorder<Int, Int>()
        let source = BatchesDataSource<Int, Int>(
            initialToken: 0, clock: ManualClock(),
            loader: { page in
                calls.wrappingAdd(1, ordering: .relaxed)
                await Task.yield()
                let items = Array(page * Self.pageSize..<(page + 1) * Self.pageSize)
                return page < Self.lastPage ? .items(items, next: page + 1) : .completed(items)
            },
            onEvent: recorder.onEvent)

        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    for step in 0..<200 {
                        // Mostly loadNext, with a reload now and then (different per worker and round).
                        if (step + worker * 7 + round) % 23 == 0 { source.reload() } else { source.loadNext() }
                        if step % 10 == 0 { await Task.yield() }
                    }
                }
            }
        }
        // Let every started load finish (delivered or discarded) and the outbox drain.
        let quiet = await eventually {
            let events = recorder.events
            let started = events.filter { if case .loading = $0 { true } else { false } }.count
            let delivered = events.filter { if case .batch = $0 { true } else { false } }.count
            return !source.snapshot.isLoading && calls.load(ordering: .relaxed) == started
                && delivered + source.discardedOutcomeCount == started
                && source.state.withLock { !$0.isDraining }
        }
        try #require(quiet, "quiescence")

        var validator = EventOrderValidator()
        validator.check(recorder.events)
        #expect(validator.violations == [])
        #expect(recorder.overlapCount == 0)
        #expect(validator.currentOffset == source.snapshot.offset)
    }
}
