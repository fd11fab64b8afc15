/// The benchmark modes of rowstream-load (`storm`, `fanout`, `idle`): each runs one measurement over a
/// ``StreamFleet`` and returns its figures as one JSON object. Every wait is bounded by `timeoutSeconds`.
/// Thread rules: run on the load client's only thread.
struct BenchOptions {
    var port = 0
    var path = "/tables/customers/stream"
    var streams = 1_000
    var readiness = StreamFleet.Readiness.firstRows
    /// The server's PID, for its CPU time and memory (/proc); `--pid A,B,C` (a cluster's instances): their CPU
    /// time summed, the memory of the first.
    var pids: [Int32] = []
    var pid: Int32 { pids.first ?? 0 }
    /// A proxy's processes in front of the servers (nginx's workers), for their CPU time apart: `--proxy-pid A,B`.
    var proxyPids: [Int32] = []
    var seconds = 5
    var hz = 20
    var publishPath = "/tables/customers/refresh"
    /// Where each publish goes: empty, the streams' port; `--publish-ports A,B,C`, every one of them per tick (the
    /// instances of a cluster whose live tables are not shared).
    var publishPorts: [UInt16] = []
    /// Bytes of each published message: 0 sends an empty body (rowstream's refresh stamps its own rows).
    var publishBytes = 0
    var holdSeconds = 3
    /// Storm: seconds the streams stay open after the figures are printed (`--linger`; 0, the default: none).
    var lingerSeconds = 0
    var timeoutSeconds = 120
    var maxPending = 500
    /// Streams ask for gzip and decode it (`--accept-encoding gzip`).
    var acceptGzip = false
    /// When each stream's request is sent (`--requests after-connects|at-connect`): once the fleet has started all
    /// its connects and waits for events (the default), or right after its own connect, as a browser does.
    var requestsAtConnect = false
    /// Idle: seconds after the last arrival at which to read the server's RSS (`--measure-at 3,15`); empty: once,
    /// `holdSeconds` after.
    var measureAt: [Int] = []
    /// The first source address (host byte order; `--source 127.0.0.N`) and streams per address (`--per-address`):
    /// the load processes of `Scripts/bench scale` each dial from addresses of their own.
    var firstSource = Dialer.firstSource
    var perAddress = Dialer.perAddress
    /// Scale: live changes to wait for (`--changes`), where to write each receipt (`--receipts FILE`), and how long
    /// after a change's first receipt its last may come before it is given up (`--change-wait`).
    var changes = 1
    var receiptsPath: String?
    var changeWaitSeconds = 30
}

/// The figures of a run, as `"name":value` pairs in order.
struct BenchReport {
    private var fields: [(String, String)] = []

    mutating func add(_ name: String, _ value: Int) { fields.append((name, String(value))) }
    /// A word of letters, digits and `_` only (written as a JSON string without escaping).
    mutating func add(_ name: String, _ word: String) { fields.append((name, "\"" + word + "\"")) }
    mutating func add(_ name: String, _ value: Double) {
        fields.append((name, value.isFinite ? String((value * 1_000).rounded() / 1_000) : "null"))
    }

    var json: String { "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}" }
}

/// The `p`-th percentile (0...100) of `values` by nearest rank, in place-sorted order; 0 when empty.
func percentile(_ sorted: [Int64], _ p: Double) -> Int64 {
    guard !sorted.isEmpty else { return 0 }
    let rank = Int((p / 100 * Double(sorted.count - 1)).rounded())
    return sorted[min(sorted.count - 1, max(0, rank))]
}

extension Payload {
    /// The `ts=N` (microseconds) and `seq=N` stamped in a bench event's data, or nil when it carries none.
    static func stamp(in data: [UInt8]) -> (ts: Int64, seq: Int)? {
        data.withUnsafeBufferPointer { bytes -> (Int64, Int)? in
            var index = 0
            while index + 3 < bytes.count {
                if bytes[index] == 116, bytes[index + 1] == 115, bytes[index + 2] == 61 {  // "ts="
                    var at = index + 3
                    let ts = digits(bytes, &at)
                    guard at + 4 < bytes.count, bytes[at] == 32, bytes[at + 1] == 115, bytes[at + 2] == 101,
                          bytes[at + 3] == 113, bytes[at + 4] == 61 else { return nil }  // " seq="
                    at += 5
                    return (ts, Int(digits(bytes, &at)))
                }
                index += 1
            }
            return nil
        }
    }

    private static func digits(_ bytes: UnsafeBufferPointer<UInt8>, _ at: inout Int) -> Int64 {
        var value: Int64 = 0
        let start = at
        while at < bytes.count, at - start < 18, bytes[at] >= 48, bytes[at] <= 57 {
            value = value * 10 + Int64(bytes[at] - 48)
            at += 1
        }
        return value
    }
}
