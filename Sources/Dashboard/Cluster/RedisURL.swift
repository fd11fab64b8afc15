/// Where the cluster's Redis is (`--redis`, or `"redis"` in the config file): `redis://[:PASSWORD@]HOST[:PORT][/DB]`
/// with a numeric IP address or `localhost` as HOST (port 6379 unless given; an IPv6 address in brackets), or
/// `unix:///PATH` for a unix socket. Names are not resolved (that would wait on DNS on the client's event loop).
///
/// A plain value: thread-safe. Its description never shows the password.
public struct RedisURL: Sendable, Equatable, CustomStringConvertible {
    public enum Address: Sendable, Equatable {
        case tcp(host: String, port: Int)
        case unix(path: String)
    }

    public var address: Address
    /// Sent as `AUTH` on each connection.
    public var password: String?
    /// Sent as `SELECT` on each connection when not 0.
    public var database = 0

    /// What a valid one looks like, for error messages.
    public static let expected = "redis://[:PASSWORD@]HOST[:PORT][/DB] (HOST a numeric IP address or localhost, DB 0...15) or unix:///PATH"

    /// Parses `text`: nil unless it is as ``expected`` says.
    public init?(_ text: String) {
        if text.hasPrefix("unix://") {
            let path = String(text.dropFirst("unix://".count))
            guard path.hasPrefix("/"), path.utf8.count < 108, !path.contains("\0") else {
                return nil
            }
            address = .unix(path: path)
            return
        }
        guard text.hasPrefix("redis://") else { return nil }
        var rest = Substring(text.dropFirst("redis://".count))
        if let at = rest.lastIndex(of: "@") {
            let credentials = rest[..<at]
            password = String(credentials.drop { $0 != ":" }.dropFirst())
            rest = rest[rest.index(after: at)...]
        }
        if let slash = rest.firstIndex(of: "/") {
            let db = rest[rest.index(after: slash)...]
            if !db.isEmpty {
                guard let number = Int(db), (0...15).contains(number) else { return nil }
                database = number
            }
            rest = rest[..<slash]
        }
        var host = rest
        var port = 6379
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { return nil }
            host = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":"), let number = Int(after.dropFirst()) else { return nil }
                port = number
            }
        } else if let colon = rest.lastIndex(of: ":") {
            host = rest[..<colon]
            guard !host.contains(":"), let number = Int(rest[rest.index(after: colon)...]) else { return nil }
            port = number
        }
        guard (1...65_535).contains(port) else { return nil }
        let ipv4 = host.split(separator: ".", omittingEmptySubsequences: false).count == 4
            && host.allSatisfy { $0.isASCII && ($0.isNumber || $0 == ".") }
        let ipv6 = rest.hasPrefix("[") && host.contains(":") && host.allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." }
        guard host == "localhost" || ipv4 || ipv6 else { return nil }
        address = .tcp(host: String(host), port: port)
    }

    public var description: String {
        switch address {
        case .unix(let path): return "unix://" + path
        case .tcp(let host, let port): return "redis://" + (host.contains(":") ? "[\(host)]" : host) + ":\(port)"
        }
    }
}
