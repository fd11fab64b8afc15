import Glibc

/// Scale: one of the several load processes of `Scripts/bench scale` (Bench/Scale/scale.py), each under its own
/// descriptor limit and dialing from source addresses of its own (`--source`, `--per-address`). Opens `streams`
/// streams (`maxPending` connecting at once), each ready at its first `rows` event, then prints
/// `{"phase":"ready",...}`; the script publishes the live changes once every process is ready. A change is told
/// apart by the `seq=` its rows carry (the demo upstream's `--bench-stamp on`: the request number of the refresh
/// that fetched them): the first event of a stream, after its first rows, with a `seq` the stream has not seen
/// is its receipt of that change. When every stream still held has a change, or `changeWaitSeconds` after its
/// first receipt, the process prints `{"phase":"change","change":K,...}` (K from 1, in the order the changes were
/// first seen); after `changes` of them, or at `timeoutSeconds`, it writes every receipt to `receiptsPath` (lines
/// `K WALL_MICROSECONDS`) and returns its figures (printed as the last line).
/// Thread rules: run on the load client's only thread.
enum ScaleBench {
    static func run(_ options: BenchOptions) -> (report: BenchReport, ok: Bool) {
        let deadline = ContinuousClock.now + .seconds(options.timeoutSeconds)
        let fleet = StreamFleet(port: options.port, path: options.path, readiness: .firstRows)
        fleet.firstSource = options.firstSource
        fleet.perAddress = options.perAddress
        var seen = [[Int]](repeating: [], count: options.streams)  // per stream: the seqs it has had, in order
        var hadRows = [Bool](repeating: false, count: options.streams)
        var changes = ChangeLog()
        fleet.onEvent = { stream, event, now in
            let number = stream.number
            let stamp = Payload.stamp(in: event.data)
            guard hadRows[number] else {  // up to its first rows: what it holds, not a change
                if event.name == "rows" { hadRows[number] = true }
                if let stamp, !seen[number].contains(stamp.seq) { seen[number].append(stamp.seq) }
                return
            }
            guard let stamp, !seen[number].contains(stamp.seq) else { return }
            seen[number].append(stamp.seq)
            changes.receive(seq: stamp.seq, at: now)
        }
        let start = wallMicros()
        fleet.open(options.streams, maxPending: options.maxPending)
        fleet.pump(until: deadline, tickMilliseconds: 50) {
            fleet.readyCount + fleet.closedCount >= options.streams && fleet.streams.count >= options.streams
        }
        let firstRows = fleet.streams.compactMap { stream in stream.readyAt.map { $0 - stream.openedAt } }.sorted()
        let allRowsAt = fleet.streams.compactMap(\.readyAt).max() ?? start
        let held = { fleet.streams.count { $0.readyAt != nil && !$0.closed } }
        var ready = BenchReport()
        ready.add("phase", "ready")
        ready.add("viewers_with_rows", firstRows.count)
        ready.add("held", held())
        emit(ready)

        var reported = 0
        fleet.pump(until: deadline, tickMilliseconds: 20) {
            let holding = held()
            while reported < changes.order.count,
                  changes.count(reported) >= holding
                  || wallMicros() - changes.firstSeen(reported) > Int64(options.changeWaitSeconds) * 1_000_000 {
                var line = BenchReport()
                line.add("phase", "change")
                line.add("change", reported + 1)
                line.add("received", changes.count(reported))
                line.add("held", holding)
                emit(line)
                reported += 1
            }
            return reported >= options.changes
        }
        if let path = options.receiptsPath { changes.write(to: path) }
        var report = BenchReport()
        report.add("phase", "done")
        report.add("viewers", options.streams)
        report.add("viewers_with_rows", firstRows.count)
        report.add("held", held())
        report.add("all_first_rows_ms", Double(allRowsAt - start) / 1_000)
        report.add("first_rows_p50_ms", Double(percentile(firstRows, 50)) / 1_000)
        report.add("first_rows_p99_ms", Double(percentile(firstRows, 99)) / 1_000)
        report.add("changes", reported)
        report.add("received", changes.receipts.count)
        report.add("failed_connects", fleet.failedConnects)
        report.add("bad_statuses", fleet.badStatuses)
        report.add("closed", fleet.closedCount)
        return (report, firstRows.count == options.streams && reported >= options.changes)
    }

    /// One JSON line on standard output, flushed at once: the script waits for it.
    private static func emit(_ report: BenchReport) {
        print(report.json)
        fflush(nil)  // every stream: `stdout` itself is a global var Swift 6 will not touch
    }
}

/// The live changes one load process received: each change (a `seq`) numbered in the order it was first seen, and
/// every receipt's change number and wall-clock time.
/// Thread rules: confined to the load client's only thread.
struct ChangeLog {
    private(set) var order: [Int] = []
    private var index: [Int: Int] = [:]
    private var counts: [Int] = []
    private var first: [Int64] = []
    private(set) var receipts: [(change: Int, at: Int64)] = []

    mutating func receive(seq: Int, at now: Int64) {
        let change: Int
        if let known = index[seq] {
            change = known
        } else {
            change = order.count
            index[seq] = change
            order.append(seq)
            counts.append(0)
            first.append(now)
        }
        counts[change] += 1
        receipts.append((change, now))
    }

    func count(_ change: Int) -> Int { counts[change] }
    func firstSeen(_ change: Int) -> Int64 { first[change] }

    /// Writes `K WALL_MICROSECONDS` per receipt, K counted from 1.
    func write(to path: String) {
        guard let file = fopen(path, "w") else { fail("cannot write \(path)") }
        for receipt in receipts { fputs("\(receipt.change + 1) \(receipt.at)\n", file) }
        fclose(file)
    }
}
