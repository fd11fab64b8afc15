/// A start-up error of the dashboard, with a message that names what failed. Each kind is a static member (like
/// `UpstreamError`); ``description`` is the message. Thread-safe: an immutable value.
public struct DashboardError: Error, CustomStringConvertible, Sendable, Equatable {
    private enum Code: Sendable, Equatable {
        case batchSize(Int)
        case forwardRefused(table: String, refusal: String)
        case upstreamClient(String)
        case serverStart(String)
        case sealingKeys(String)
        case redis(url: String, reason: String)
        case responseTimeoutTooShort(seconds: Int64, expected: String)
        case reusePortWithoutRedis
    }

    private let code: Code
    private init(_ code: Code) { self.code = code }

    /// `--batch-size` outside 1...500.
    static func batchSize(_ size: Int) -> DashboardError { DashboardError(.batchSize(size)) }
    /// A table forwards the viewer where the access mode does not allow it (`refusal` says why).
    static func forwardRefused(table: String, _ refusal: String) -> DashboardError {
        DashboardError(.forwardRefused(table: table, refusal: refusal))
    }
    /// libcurl's multi client could not start.
    static func upstreamClient(_ error: any Error) -> DashboardError { DashboardError(.upstreamClient("\(error)")) }
    /// The library's server refused to start (its `RowstreamError`'s message).
    static func serverStart(_ error: any Error) -> DashboardError { DashboardError(.serverStart("\(error)")) }
    /// The sealing key file could not be read (its error's message).
    static func sealingKeys(_ error: any Error) -> DashboardError { DashboardError(.sealingKeys("\(error)")) }
    /// The cluster's Redis client could not start.
    static func redis(_ url: RedisURL, _ error: any Error) -> DashboardError {
        DashboardError(.redis(url: url.description, reason: "\(error)"))
    }
    /// `--response-timeout-seconds` shorter than a table's fetches may take.
    static func responseTimeoutTooShort(seconds: Int64, expected: String) -> DashboardError {
        DashboardError(.responseTimeoutTooShort(seconds: seconds, expected: expected))
    }

    /// `--reuse-port` without a Redis (`--redis` or the config's `redis`): the processes sharing the port could not
    /// hand each other the requests of their viewers.
    static var reusePortWithoutRedis: DashboardError { DashboardError(.reusePortWithoutRedis) }

    public var description: String {
        switch code {
        case .batchSize(let size): "batch size must be 1...500, not \(size)"
        case .forwardRefused(let table, let refusal): "table \(table) \(refusal)"
        case .upstreamClient(let error): "cannot start the upstream client: \(error)"
        case .serverStart(let message), .sealingKeys(let message): message
        case .redis(let url, let reason): "--redis \(url): \(reason)"
        case .responseTimeoutTooShort(let seconds, let expected):
            "--response-timeout-seconds \(seconds) is too short: it must be \(expected)"
        case .reusePortWithoutRedis:
            "--reuse-port needs --redis (or the config's redis): the processes sharing a port hand each other their "
                + "viewers' requests through Redis; without it a viewer's request that reaches another process is "
                + "answered ended and its table reconnects again and again (docs/SCALING.md)"
        }
    }
}
