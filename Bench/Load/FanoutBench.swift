/// Fan-out: `streams` viewers of one live stream; a publisher POSTs to `publishPath` `hz` times a second for
/// `seconds` (at most two publishes in flight; a tick that finds two is skipped and counted; with `publishPorts`, a
/// cluster whose instances each refresh their own viewers, one POST to each per tick, at most two each in flight).
/// Each broadcast event carries `ts=<wall microseconds> seq=<n>`: a peer's message carries the publish time itself;
/// Rowstream's demo upstream (`--bench-stamp on`) stamps the rows when the refresh fetches them, and the publish
/// time is then the last publish at or before that stamp. Reports events delivered per second, delivery latency
/// p50/p99 (publish to parsed event), the server's CPU microseconds per delivered event (/proc/PID/stat over the
/// window; a cluster's instances summed, a proxy's `proxyPids` apart), and events lost: every broadcast seen by any
/// viewer, times the viewers ready at the start, less those delivered.
enum FanoutBench {
    static func run(_ options: BenchOptions) -> (report: BenchReport, ok: Bool) {
        let fleet = StreamFleet(port: options.port, path: options.path, readiness: options.readiness,
                                acceptGzip: options.acceptGzip)
        var windowStart = Int64.max
        var publishTimes: [Int64] = []
        var latencies: [Int64] = []
        var delivered = 0, eventBytes = 0
        var lastDelivery: Int64 = 0
        var broadcasts = Set<Int>()
        fleet.onEvent = { _, event, now in
            guard let stamp = Payload.stamp(in: event.data), stamp.ts >= windowStart else { return }
            delivered += 1
            eventBytes += event.data.count
            lastDelivery = now
            broadcasts.insert(stamp.seq)
            if let sent = lastAtOrBefore(publishTimes, stamp.ts) { latencies.append(now - sent) }
        }
        fleet.open(options.streams, maxPending: options.maxPending)
        fleet.pump(until: .now + .seconds(options.timeoutSeconds), tickMilliseconds: 50) {
            fleet.readyCount + fleet.closedCount >= options.streams && fleet.streams.count >= options.streams
        }
        fleet.pump(until: .now + .milliseconds(500), tickMilliseconds: 50)  // settle
        let viewers = fleet.streams.count { $0.readyAt != nil && !$0.closed }
        let closedBefore = fleet.closedCount
        let cpuStart = ProcessProbe.cpuMicros(options.pids)
        let proxyCPUStart = ProcessProbe.cpuMicros(options.proxyPids)
        windowStart = wallMicros()
        let period = Int64(1_000_000 / max(options.hz, 1))
        var nextPublish = windowStart
        var skipped = 0
        fleet.pump(until: .now + .seconds(options.seconds), tickMilliseconds: 2, tick: {
            let now = wallMicros()
            guard now >= nextPublish else { return }
            nextPublish += period
            let targets: [UInt16?] = options.publishPorts.isEmpty ? [nil] : options.publishPorts
            guard fleet.outstandingPublishes < 2 * targets.count else {
                skipped += 1
                return
            }
            publishTimes.append(now)
            let body = message(now: now, seq: publishTimes.count, options)
            for port in targets { fleet.publish(path: options.publishPath, body: body, port: port) }
        })
        let publishEnd = wallMicros()
        var quietSince = ContinuousClock.now
        var seen = delivered
        fleet.pump(until: .now + .seconds(3), tickMilliseconds: 20) {  // drain: until 300 ms without an event
            if delivered != seen { (seen, quietSince) = (delivered, .now) }
            return fleet.outstandingPublishes == 0 && ContinuousClock.now - quietSince > .milliseconds(300)
        }
        let cpu = ProcessProbe.cpuMicros(options.pids) - cpuStart
        let proxyCPU = ProcessProbe.cpuMicros(options.proxyPids) - proxyCPUStart
        latencies.sort()
        let span = Double(max(lastDelivery, publishEnd) - windowStart) / 1_000_000
        var report = BenchReport()
        report.add("viewers", viewers)
        report.add("published", publishTimes.count)
        report.add("skipped_publishes", skipped)
        report.add("failed_publishes", fleet.failedPublishes)
        report.add("broadcasts", broadcasts.count)
        report.add("delivered", delivered)
        report.add("lost", broadcasts.count * viewers - delivered)
        report.add("closed_during", fleet.closedCount - closedBefore)
        report.add("events_per_s", Double(delivered) / max(span, 0.001))
        report.add("latency_p50_ms", Double(percentile(latencies, 50)) / 1_000)
        report.add("latency_p99_ms", Double(percentile(latencies, 99)) / 1_000)
        report.add("cpu_us_per_event", Double(cpu) / Double(max(delivered, 1)))
        report.add("server_cpu_percent", Double(cpu) / 10_000 / max(span, 0.001))
        report.add("event_bytes", Double(eventBytes) / Double(max(delivered, 1)))
        if options.acceptGzip { report.add("inflate_failures", fleet.inflater.failures) }
        if !options.proxyPids.isEmpty {
            report.add("proxy_cpu_us_per_event", Double(proxyCPU) / Double(max(delivered, 1)))
        }
        return (report, viewers == options.streams && delivered > 0)
    }

    /// The published body: empty for Rowstream (its refresh stamps the rows), else `ts= seq= ` padded with `x`
    /// to `publishBytes` (one line: no newline, so it is one `data:` line on the wire).
    private static func message(now: Int64, seq: Int, _ options: BenchOptions) -> [UInt8] {
        guard options.publishBytes > 0 else { return [] }
        var body = Array("ts=\(now) seq=\(seq) ".utf8)
        if body.count < options.publishBytes { body += [UInt8](repeating: 120, count: options.publishBytes - body.count) }
        return body
    }

    /// The last of the ascending `times` that is at most `value`.
    private static func lastAtOrBefore(_ times: [Int64], _ value: Int64) -> Int64? {
        var low = 0, high = times.count
        while low < high {
            let middle = (low + high) / 2
            if times[middle] <= value { low = middle + 1 } else { high = middle }
        }
        return low > 0 ? times[low - 1] : nil
    }
}
