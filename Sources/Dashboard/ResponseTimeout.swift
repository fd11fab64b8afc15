import RowstreamKit

/// How long a deferred answer may take (`--response-timeout-seconds`, the config's `responseTimeoutSeconds`;
/// ``ServerConfiguration/responseTimeout``) against the tables' upstream fetches (docs/CONFIG.md): an answer that
/// waits for a fetch (a proxied page, a batch fetched again) must not be cut off by the server while the fetch
/// may still succeed. One fetch takes at most its `timeoutSeconds` per attempt, for `retry.attempts`, with a wait
/// of at most the larger of `retry.maxDelaySeconds` and `retry.maxRetryAfterSeconds` between attempts.
///
/// A given timeout must outlast each table's slowest fetch by ``margin``, else the server refuses to start and says
/// what to raise; without one, the server uses ``standard`` or, when a table needs more, its slowest fetch plus
/// ``margin``. Pure: thread-safe.
public enum ResponseTimeout {
    /// Without a config or flag: 120 s.
    public static let standard: Duration = .seconds(120)
    /// How much longer than a table's slowest fetch the timeout must be (the fetch's queueing, the answer's writing).
    public static let margin: Duration = .seconds(10)

    /// The longest one upstream fetch of `table` may take: every attempt timing out, with the longest wait between.
    public static func slowestFetch(_ table: TableConfig) -> Duration {
        let attempts = max(1, table.retry.maxAttempts)
        let wait = max(table.retry.maxDelay, table.retry.maxRetryAfter)
        return table.template.timeout * attempts + wait * (attempts - 1)
    }

    /// The first table whose slowest fetch `timeout` does not outlast by ``margin``; nil: it outlasts all.
    public static func tooShort(_ timeout: Duration, for tables: [TableConfig]) -> TableConfig? {
        tables.first { slowestFetch($0) + margin > timeout }
    }

    /// What a timeout too short for `table` must be instead, for an error message.
    static func expected(for table: TableConfig) -> String {
        let fetch = slowestFetch(table)
        return "a number of seconds of at least \(seconds(fetch + margin)): table \"\(table.spec.name)\"'s slowest "
            + "upstream fetch takes up to \(seconds(fetch)) s (timeoutSeconds \(seconds(table.template.timeout)) × "
            + "\(table.retry.maxAttempts) attempts, and the waits between them), and an answer waiting for it must "
            + "outlast it by \(seconds(margin)) s; or lower that table's timeoutSeconds or retry"
    }

    /// The timeout to serve with: `flag` (`--response-timeout-seconds`), else `config` (`responseTimeoutSeconds`,
    /// already checked when the file was read), else the default for `tables`; a flag too short is refused.
    static func resolve(flag: Duration?, config: Duration?, tables: [TableConfig]) throws(DashboardError) -> Duration {
        if let flag {
            if let slow = tooShort(flag, for: tables) {
                throw DashboardError.responseTimeoutTooShort(seconds: seconds(flag), expected: expected(for: slow))
            }
            return flag
        }
        if let config { return config }
        return tables.map { slowestFetch($0) + margin }.reduce(standard) { max($0, $1) }
    }

    /// `duration` in whole seconds, rounded up.
    private static func seconds(_ duration: Duration) -> Int64 {
        let parts = duration.components
        return parts.seconds + (parts.attoseconds > 0 ? 1 : 0)
    }
}
