import Dashboard
import HTTPServerTesting
import TestSupport
import Testing

/// `--demo-live-seconds N` alone shows what it promises: the demo data changes every N seconds and the live demo
/// tables refresh themselves as often (README, docs/CONFIG.md); `--demo-refresh-seconds` overrides it, 0 = only
/// on POST refresh.
@Suite("Demo live option")
struct DemoLiveOptionTests {
    private func parsed(_ arguments: [String]) throws -> DemoUpstream.Configuration {
        var configuration = DashboardConfiguration()
        _ = try CommandLineOptions.parse(arguments, into: &configuration)
        return configuration.demo
    }

    @Test func liveSecondsAloneImpliesARefreshAsOften() throws {
        let demo = try parsed(["--demo-live-seconds", "3"])
        #expect(demo.liveEvery == .seconds(3))
        #expect(demo.refreshEvery == .seconds(3))
    }

    @Test(arguments: [["--demo-refresh-seconds", "7", "--demo-live-seconds", "3"],
                      ["--demo-live-seconds", "3", "--demo-refresh-seconds", "7"]])
    func anExplicitRefreshIntervalWinsInAnyOrder(arguments: [String]) throws {
        let demo = try parsed(arguments)
        #expect(demo.liveEvery == .seconds(3))
        #expect(demo.refreshEvery == .seconds(7))
    }

    @Test func refreshSecondsZeroMeansOnlyOnPostRefresh() throws {
        let demo = try parsed(["--demo-live-seconds", "3", "--demo-refresh-seconds", "0"])
        #expect(demo.liveEvery == .seconds(3))
        #expect(demo.refreshEvery == nil)
    }

    @Test func withoutLiveModeNothingRefreshes() throws {
        let demo = try parsed(["--demo-items", "10"])
        #expect(demo.liveEvery == nil && demo.refreshEvery == nil)
        #expect(throws: CommandLineOptions.ParseError.self) { try parsed(["--demo-refresh-seconds", "-1"]) }
    }

    /// End to end, as `Scripts/run --demo-live-seconds 1` starts it: with no POST refresh, the demo table and the
    /// demo page's other tables stream the new customer (an `insert`) by themselves.
    @Test func theCommandLineAloneStreamsLiveInserts() async throws {
        var configuration = DashboardConfiguration()
        _ = try CommandLineOptions.parse(["--demo-live-seconds", "1", "--demo-items", "20", "--batch-size", "4",
                                          "--demo-latency-ms", "0", "--port", "0"], into: &configuration)
        configuration.server.eventLoopCount = 2
        configuration.server.publicDirectory = publicDirectory
        let dashboard = try Dashboard.start(configuration)
        defer { dashboard.shutdown() }
        for table in ["customers", "customers-cards"] {
            // Each read may wait as long as the whole bound: in the full suite on a busy machine the first insert took
            // up to 25 s (2 s alone), the cooperative pool being shared with every other test.
            let viewer = try await SSEClient(port: dashboard.port, path: "/tables/\(table)/stream", timeoutSeconds: 60)
            _ = try await viewer.next(named: "rows")
            let insert = try #require(try await firstInsert(viewer), "\(table): no live insert within 60 s")
            #expect(rowKeys(insert.data).allSatisfy { (Int($0) ?? 0) > 20 }, "\(table): a new customer")
        }
    }

    /// The first `insert` event within 60 s (each read bounded by the client's timeout), or nil.
    private func firstInsert(_ viewer: SSEClient) async throws -> ReceivedEvent? {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline, let event = try await viewer.next() {
            if event.event == "insert" { return event }
        }
        return nil
    }
}
