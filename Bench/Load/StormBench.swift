/// Viewer storm: `streams` viewers open the same table at once (every connect started before the first event is
/// read) and wait for their first `rows` event. Reports the time until all had it (from the first connect), and
/// each viewer's own time (connect to first rows) at p50 and p99, the connect rate (viewers ready per second of
/// that time) and, with `--pid`, the server's CPU time (/proc/PID/stat) per viewer ready; `client_cpu_us_per_viewer`
/// is this process's own (getrusage: user + system) over the same window, which shows when the client, not the
/// server, bounds the connect rate (it runs on one core). `--ready head` (a peer
/// such as nchan, which has no rows) counts a viewer at its response head: a bare subscribe; `--ready event` at its
/// first complete event (nchan handing each new subscriber a stored message: the table's first rows). Upstream
/// requests are read by the script from the server's /metrics before and after. `--requests at-connect`: each
/// viewer's request leaves right after its own connect, as a browser's does, not once all connects are started.
enum StormBench {
    /// Measures, hands the figures to `measured`, then keeps the streams open `lingerSeconds` before they close.
    static func run(_ options: BenchOptions, measured: (BenchReport) -> Void) -> (report: BenchReport, ok: Bool) {
        let fleet = StreamFleet(port: options.port, path: options.path, readiness: options.readiness,
                                acceptGzip: options.acceptGzip)
        fleet.requestsAtConnect = options.requestsAtConnect
        let cpuStart = ProcessProbe.cpuMicros(options.pids)
        let clientCPUStart = ProcessProbe.selfCPUMicros()
        fleet.open(options.streams, maxPending: options.streams)
        let start = wallMicros()
        fleet.pump(until: .now + .seconds(options.timeoutSeconds), tickMilliseconds: 50) {
            fleet.readyCount + fleet.closedCount >= options.streams && fleet.streams.count >= options.streams
        }
        let ready = fleet.streams.compactMap { stream in stream.readyAt.map { $0 - stream.openedAt } }.sorted()
        let last = fleet.streams.compactMap(\.readyAt).max() ?? start
        let cpu = ProcessProbe.cpuMicros(options.pids) - cpuStart
        let clientCPU = ProcessProbe.selfCPUMicros() - clientCPUStart
        var report = BenchReport()
        report.add("viewers", options.streams)
        report.add("viewers_with_rows", ready.count)
        report.add("all_first_rows_ms", Double(last - start) / 1_000)
        report.add("viewer_p50_ms", Double(percentile(ready, 50)) / 1_000)
        report.add("viewer_p99_ms", Double(percentile(ready, 99)) / 1_000)
        report.add("connects_per_s", Double(ready.count) / max(Double(last - start) / 1_000_000, 0.000_001))
        if !options.pids.isEmpty { report.add("cpu_us_per_viewer", Double(cpu) / Double(max(ready.count, 1))) }
        report.add("client_cpu_us_per_viewer", Double(clientCPU) / Double(max(ready.count, 1)))
        report.add("failed_connects", fleet.failedConnects)
        report.add("bad_statuses", fleet.badStatuses)
        report.add("closed_early", fleet.closedCount)
        measured(report)
        if options.lingerSeconds > 0 {
            fleet.pump(until: .now + .seconds(options.lingerSeconds), tickMilliseconds: 100)
        }
        return (report, ready.count == options.streams)
    }
}
