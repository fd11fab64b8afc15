/// Idle capacity: opens `streams` streams (at most `maxPending` connecting at once), waits until each is ready
/// (its first `rows` event for Rowstream, its response head for a peer), holds them `holdSeconds`, and reports
/// the server's VmRSS before and after and the difference per stream.
enum IdleBench {
    static func run(_ options: BenchOptions) -> (report: BenchReport, ok: Bool) {
        let before = ProcessProbe.rssKilobytes(options.pid) ?? 0
        let fleet = StreamFleet(port: options.port, path: options.path, readiness: options.readiness,
                                acceptGzip: options.acceptGzip)
        fleet.open(options.streams, maxPending: options.maxPending)
        fleet.pump(until: .now + .seconds(options.timeoutSeconds), tickMilliseconds: 50) {
            fleet.readyCount + fleet.closedCount >= options.streams && fleet.streams.count >= options.streams
        }
        fleet.pump(until: .now + .seconds(options.holdSeconds), tickMilliseconds: 100)  // idle: heartbeats only
        let held = fleet.streams.count { $0.readyAt != nil && !$0.closed }
        let after = ProcessProbe.rssKilobytes(options.pid) ?? 0
        var report = BenchReport()
        report.add("streams", held)
        report.add("rss_before_kb", before)
        report.add("rss_after_kb", after)
        report.add("bytes_per_stream", Double((after - before) * 1_024) / Double(max(held, 1)))
        report.add("failed_connects", fleet.failedConnects)
        report.add("bad_statuses", fleet.badStatuses)
        return (report, held == options.streams && before > 0)
    }
}
