import Synchronization
import TestSupport
import Testing
@testable import Upstream

/// Cancellation, shutdown and concurrency.
@Suite struct UpstreamClientLifecycleTests {
    @Test func cancellingTheTaskAbortsAHangingTransfer() async throws {
        let server = try FixtureServer { _ in .hang }
        defer { server.stop() }
        let client = try UpstreamClient()
        defer { client.shutdown() }
        var hanging = UpstreamRequest(url: server.baseURL + "/hang")
        hanging.timeout = .seconds(60)  // if cancellation did not work, this would end as .timedOut
        let request = hanging

        let task = Task { () async throws(UpstreamError) -> UpstreamResponse in try await client.fetch(request) }
        #expect(await eventually { server.requests.count == 1 })
        task.cancel()

        let result = await task.result
        #expect(throws: UpstreamError.cancelled) { try result.get() }
        // The easy handle was removed: the fixture sees its connection closed.
        #expect(await eventually { server.connectionsClosedByPeer == 1 })
    }

    @Test func aTaskCancelledBeforeFetchingNeverSends() async throws {
        let server = try FixtureServer { _ in .json("{}") }
        defer { server.stop() }
        let client = try UpstreamClient()
        defer { client.shutdown() }

        let task = Task { () async throws(UpstreamError) -> UpstreamResponse in
            withUnsafeCurrentTask { $0?.cancel() }
            return try await client.fetch(UpstreamRequest(url: server.baseURL + "/never"))
        }

        await #expect(throws: UpstreamError.cancelled) { try await task.value }
        #expect(server.requests.isEmpty)
    }

    @Test func fiftyConcurrentFetchesAllComplete() async throws {
        let server = try FixtureServer { request in .slow(.milliseconds(20), .json("\"\(request.path)\"")) }
        defer { server.stop() }
        let client = try UpstreamClient()
        defer { client.shutdown() }

        let bodies = try await withThrowingTaskGroup(of: (Int, String).self) { group in
            for index in 0..<50 {
                group.addTask {
                    let response = try await client.fetch(UpstreamRequest(url: server.baseURL + "/item/\(index)"))
                    return (index, String(decoding: response.body, as: UTF8.self))
                }
            }
            return try await group.reduce(into: [Int: String]()) { $0[$1.0] = $1.1 }
        }

        #expect(bodies.count == 50)
        #expect((0..<50).allSatisfy { bodies[$0] == "\"/item/\($0)\"" })
    }

    @Test func transfersBeyondTheCapWaitTheirTurn() async throws {
        // The upstream holds every reply until the test releases it: the cap must fill (2 held at once) and then
        // let exactly one more request through per reply released, never a third at once.
        let (gate, server, client) = try heldUpstream(slots: 2)
        defer { server.stop(); client.shutdown() }

        try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<8 {
                group.addTask {
                    var request = UpstreamRequest(url: server.baseURL + "/\(index)")
                    request.timeout = .seconds(120)  // the test's own bounds (30 s each) report first
                    return try await client.fetch(request).status
                }
            }
            #expect(await eventually { gate.waiting == 2 }, "the cap of 2 was never reached")
            for released in 1...6 {
                gate.release()
                #expect(await eventually { server.requests.count >= released + 2 && gate.waiting >= 2 })
                #expect(server.requests.count == released + 2, "more than one transfer started per reply released")
            }
            gate.releaseAll()
            for try await status in group { #expect(status == 200) }
        }

        #expect(server.requests.count == 8)
        #expect(server.maxInFlight == 2)
    }

    /// A fetch waiting for a slot (the one slot held) is failed by the engine from its queue when its task is
    /// cancelled: resumed once, with `.cancelled`, never sent; the held one still completes.
    @Test func cancellingAQueuedFetchFailsItUnsent() async throws {
        let (gate, server, client) = try heldUpstream(slots: 1)
        defer { server.stop(); client.shutdown() }
        var held = UpstreamRequest(url: server.baseURL + "/held")
        held.timeout = .seconds(120)
        let request = held

        let first = Task { () async throws(UpstreamError) -> Int in try await client.fetch(request).status }
        #expect(await eventually { gate.waiting == 1 }, "the one slot was never taken")
        let queued = Task { () async throws(UpstreamError) -> UpstreamResponse in try await client.fetch(request) }
        queued.cancel()
        // The slot frees now: a queue that ignored the cancel would send the queued fetch (counted below).
        gate.releaseAll()
        let result = await queued.result
        #expect(throws: UpstreamError.cancelled) { try result.get() }
        #expect(try await first.value == 200)
        #expect(server.requests.count == 1, "the cancelled fetch was sent")
    }

    @Test func shutdownFailsInFlightTransfersAndIsIdempotent() async throws {
        let server = try FixtureServer { _ in .hang }
        defer { server.stop() }
        let client = try UpstreamClient()
        var hanging = UpstreamRequest(url: server.baseURL + "/hang")
        hanging.timeout = .seconds(60)
        let request = hanging

        let tasks = (0..<3).map { _ in
            Task { () async throws(UpstreamError) -> UpstreamResponse in try await client.fetch(request) }
        }
        #expect(await eventually { server.requests.count == 3 })
        client.shutdown()

        for task in tasks {
            let result = await task.result
            #expect(throws: UpstreamError.shutdown) { try result.get() }
        }
        client.shutdown()
        await #expect(throws: UpstreamError.shutdown) { try await client.fetch(request) }
    }

    /// An upstream that holds every reply until its gate lets it go, and a client with `slots` transfers at once
    /// (a held reply sends nothing, so no slot is freed by the low-speed timeout). The caller stops both.
    private func heldUpstream(slots: Int) throws -> (ReplyGate, FixtureServer, UpstreamClient) {
        let gate = ReplyGate()
        let server = try FixtureServer { _ in .held(gate, .json("{}")) }
        var configuration = UpstreamClientConfiguration()
        configuration.maxConcurrentTransfers = slots
        configuration.lowSpeedSeconds = 600
        do {
            return (gate, server, try UpstreamClient(configuration: configuration))
        } catch {
            server.stop()
            throw error
        }
    }
}
