import Locking

/// Caps open connections per process and per client address. The listener asks `admit` for every accepted
/// socket; a refused one gets a fixed 503 and is closed. A connection's owner calls `release` once when it closes.
///
/// Thread rules: thread-safe. `admit` runs on the listener's loop, `release` on whichever loop owns the
/// connection; both take one small lock.
final class ConnectionAdmission: Sendable {
    private struct Counts {
        var total = 0
        var perAddress: [UInt32: Int] = [:]
    }

    let maxConnections: Int
    let maxPerAddress: Int
    private let counts = Lock(Counts())

    init(maxConnections: Int, maxPerAddress: Int) {
        self.maxConnections = maxConnections
        self.maxPerAddress = maxPerAddress
    }

    /// Counts a new connection from `address` (IPv4, host order) unless a cap is reached; returns whether admitted.
    func admit(_ address: UInt32) -> Bool {
        counts.withLock { counts in
            let fromAddress = counts.perAddress[address, default: 0]
            guard counts.total < maxConnections, fromAddress < maxPerAddress else { return false }
            counts.total += 1
            counts.perAddress[address] = fromAddress + 1
            return true
        }
    }

    /// Forgets one admitted connection from `address`. Call exactly once per successful `admit`.
    func release(_ address: UInt32) {
        counts.withLock { counts in
            counts.total -= 1
            let left = counts.perAddress[address, default: 1] - 1
            counts.perAddress[address] = left > 0 ? left : nil
        }
    }

    /// Connections admitted and not yet released.
    var admitted: Int { counts.withLock { $0.total } }

    /// The fixed answer to a refused connection, with `headers` (the server's
    /// ``HTTPServerConfiguration/ownAnswerHeaders``): no request was read, so nothing of the client is echoed.
    static func refusal(headers: HTTPHeaders) -> [UInt8] {
        var response = HTTPError(.serviceUnavailable, "Too many open connections.").response(with: headers)
        response.headers.replaceOrAdd(name: HTTPFieldName.retryAfter, value: "1")
        guard case .bytes(let body) = response.body else { return [] }
        return ResponseHead.encode(response, contentLength: body.count, close: true, keepAliveHeader: false) + body
    }
}
