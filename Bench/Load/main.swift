import Foundation

// rowstream-load: the load client of Scripts/soak and Scripts/bench. Single-threaded (one epoll loop), to
// 127.0.0.1 only, every loop bounded in time. Prints one JSON line.
//   rowstream-load --port P [--viewers N] [--seconds S] [--gzip-every N]
//       soak: viewers with churn; checks each saw every row exactly once; exits 1 on a violation. Every N-th
//       viewer asks for gzip and decodes it (0, the default: none). A live table (its `session` says so) is
//       soaked too: its change events are checked (LiveChange.swift), its finished stream resumes with `complete`.
//   rowstream-load storm|fanout|idle --port P [flags]   (see BenchModes.swift and Scripts/bench)
//       --streams N --path /tables/customers/stream --ready rows|head|event --pid SERVER_PID[,PID...]
//       --proxy-pid PID[,PID...] --seconds S --hz N
//       --publish-path PATH --publish-ports PORT[,PORT...] --publish-bytes N --hold S --timeout S --max-pending N
//       --accept-encoding gzip|identity (fanout, idle, storm: streams ask for gzip and decode it, GzipBody.swift)
//       --measure-at S[,S...] (idle: RSS read S seconds after the last arrival)
//       --source 127.X.Y.Z --per-address N (the first source address, and streams from each; default 127.0.0.2, 4000)
//   rowstream-load scale --port P --streams N --source A --changes C --receipts FILE [--change-wait S]
//       one of the load processes of Scripts/bench scale (ScaleBench.swift): prints a JSON line when every stream
//       has rows, one per live change received, and a last one with its figures.
//       exits 1 when not every stream became ready.
func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("rowstream-load: \(message)\n".utf8))
    exit(2)
}

/// The comma-separated whole numbers of `value` (`--pid A,B,C`, `--publish-ports A,B,C`).
func numbers(_ flag: String, _ value: String) -> [Int] {
    let list = value.split(separator: ",", omittingEmptySubsequences: false)
        .map { Int($0).flatMap { $0 > 0 ? $0 : nil } }
    guard !list.isEmpty, list.allSatisfy({ $0 != nil }) else { fail("\(flag) takes N[,N...], not \(value)") }
    return list.compactMap { $0 }
}

/// `127.X.Y.Z` in host byte order, or nil for anything else (the load client dials from loopback only).
func loopbackAddress(_ text: String) -> UInt32? {
    let parts = text.split(separator: ".", omittingEmptySubsequences: false).map { UInt32($0) }
    guard parts.count == 4, parts[0] == 127, parts.allSatisfy({ ($0 ?? 256) < 256 }) else { return nil }
    return parts.reduce(0) { $0 << 8 | $1! }
}

signal(SIGPIPE, SIG_IGN)
var arguments = CommandLine.arguments.dropFirst()
let mode = arguments.first.flatMap { $0.hasPrefix("-") ? nil : $0 }
if mode != nil { arguments.removeFirst() }

if let mode {
    var options = BenchOptions()
    while let flag = arguments.popFirst() {
        guard let value = arguments.popFirst() else { fail("\(flag) needs a value") }
        let number = Int(value).flatMap { $0 >= 0 ? $0 : nil }
        switch (flag, number) {
        case ("--path", _): options.path = value
        case ("--accept-encoding", _) where value == "gzip" || value == "identity": options.acceptGzip = value == "gzip"
        case ("--requests", _) where value == "after-connects" || value == "at-connect":
            options.requestsAtConnect = value == "at-connect"
        case ("--publish-path", _): options.publishPath = value
        case ("--ready", _) where value == "rows": options.readiness = .firstRows
        case ("--ready", _) where value == "head": options.readiness = .head
        case ("--ready", _) where value == "event": options.readiness = .firstEvent
        case ("--port", let n?) where n > 0 && n < 65_536: options.port = n
        case ("--streams", let n?) where n >= 1 && n <= 60_000: options.streams = n
        case ("--pid", _):
            options.pids = numbers(flag, value).map { Int32(clamping: $0) }
        case ("--proxy-pid", _):
            options.proxyPids = numbers(flag, value).map { Int32(clamping: $0) }
        case ("--publish-ports", _):
            options.publishPorts = numbers(flag, value).map { UInt16(clamping: $0) }
        case ("--seconds", let n?) where n >= 1 && n <= 600: options.seconds = n
        case ("--hz", let n?) where n >= 1 && n <= 1_000: options.hz = n
        case ("--publish-bytes", let n?) where n <= 1_000_000: options.publishBytes = n
        case ("--hold", let n?) where n <= 600: options.holdSeconds = n
        case ("--linger", let n?) where n <= 600: options.lingerSeconds = n
        case ("--timeout", let n?) where n >= 1 && n <= 3_600: options.timeoutSeconds = n
        case ("--max-pending", let n?) where n >= 1: options.maxPending = n
        case ("--measure-at", _):
            options.measureAt = numbers(flag, value).filter { $0 <= 600 }.sorted()
        case ("--source", _):
            guard let address = loopbackAddress(value) else { fail("--source takes a 127.X.Y.Z address, not \(value)") }
            options.firstSource = address
        case ("--per-address", let n?) where n >= 1 && n <= 28_000: options.perAddress = n
        case ("--changes", let n?) where n >= 1 && n <= 100: options.changes = n
        case ("--receipts", _): options.receiptsPath = value
        case ("--change-wait", let n?) where n >= 1 && n <= 600: options.changeWaitSeconds = n
        default: fail("bad flag or value: \(flag) \(value)")
        }
    }
    guard options.port > 0 else { fail("--port is required") }
    let result: (report: BenchReport, ok: Bool)
    switch mode {
    case "storm":
        // Printed as soon as measured, before the streams close (they stay `--linger` seconds): a profiler of the
        // server can stop before it closes them.
        result = StormBench.run(options) { report in
            print(report.json)
            fflush(nil)  // every stream: `stdout` is a global Swift 6 will not touch
        }
        exit(result.ok ? 0 : 1)
    case "fanout": result = FanoutBench.run(options)
    case "idle": result = IdleBench.run(options)
    case "scale": result = ScaleBench.run(options)
    default: fail("unknown mode \(mode): storm, fanout, idle or scale")
    }
    print(result.report.json)
    exit(result.ok ? 0 : 1)
}

var port = 0, viewers = 1000, seconds = 30, gzipEvery = 0
while let flag = arguments.popFirst() {
    guard let value = arguments.popFirst().flatMap({ Int($0) }), value >= 0 else {
        fail("\(flag) needs a number\nusage: rowstream-load --port P [--viewers N] [--seconds S] [--gzip-every N]")
    }
    switch flag {
    case "--port": port = value
    case "--viewers": viewers = value
    case "--seconds": seconds = min(value, 3600)
    case "--gzip-every": gzipEvery = value
    default:
        fail("unknown flag \(flag)")
    }
}
guard port > 0, port < 65_536 else {
    fail("--port is required")
}
let client = LoadClient(port: port, viewers: viewers, seconds: seconds, gzipEvery: gzipEvery)
client.run()
print(client.stats.json)
exit(client.stats.violations == 0 ? 0 : 1)
