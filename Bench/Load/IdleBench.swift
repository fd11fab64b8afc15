/// Idle capacity: opens `streams` streams (at most `maxPending` connecting at once), waits until each is ready
/// (its first `rows` event for Rowstream, its response head for a peer), holds them `holdSeconds`, and reports
/// the server's VmRSS before and after and the difference per stream.
///
/// With `measureAt` (`--measure-at 3,15`): the storm pattern of issue 17. Each stream counts as arrived when its
/// response head does (`--ready head`), which frees its slot for the next connect at once (`--max-pending 256`:
/// 256 in the handshake at once); every byte of every stream is still read. RSS is read at each of those seconds
/// after the last arrival, and reported as `bytes_per_stream_<N>s`.
enum IdleBench {
    static func run(_ options: BenchOptions) -> (report: BenchReport, ok: Bool) {
        let before = ProcessProbe.rssKilobytes(options.pid) ?? 0
        let fleet = StreamFleet(port: options.port, path: options.path, readiness: options.readiness,
                                acceptGzip: options.acceptGzip)
        fleet.open(options.streams, maxPending: options.maxPending)
        let started = ContinuousClock.now
        fleet.pump(until: .now + .seconds(options.timeoutSeconds), tickMilliseconds: 50) {
            fleet.readyCount + fleet.closedCount >= options.streams && fleet.streams.count >= options.streams
        }
        let arrived = ContinuousClock.now
        var report = BenchReport()
        var after = 0
        if options.measureAt.isEmpty {
            fleet.pump(until: .now + .seconds(options.holdSeconds), tickMilliseconds: 100)  // idle: heartbeats only
            after = ProcessProbe.rssKilobytes(options.pid) ?? 0
        }
        let held = { fleet.streams.count { $0.readyAt != nil && !$0.closed } }
        for seconds in options.measureAt {
            fleet.pump(until: arrived + .seconds(seconds), tickMilliseconds: 100)
            after = ProcessProbe.rssKilobytes(options.pid) ?? 0
            report.add("rss_\(seconds)s_kb", after)
            report.add("bytes_per_stream_\(seconds)s", Double((after - before) * 1_024) / Double(max(held(), 1)))
        }
        let streams = held()
        report.add("streams", streams)
        report.add("arrival_seconds", (arrived - started) / .seconds(1))
        report.add("rss_before_kb", before)
        report.add("rss_after_kb", after)
        report.add("bytes_per_stream", Double((after - before) * 1_024) / Double(max(streams, 1)))
        report.add("failed_connects", fleet.failedConnects)
        report.add("bad_statuses", fleet.badStatuses)
        return (report, streams == options.streams && before > 0)
    }
}
