import Dashboard
import Testing
import Upstream

/// docs/CONFIG.md's `upstream` and `retry` tables: the documented defaults, and each key landing where it acts
/// (end to end: `ConfigPromiseTests`).
@Suite struct ConfigBlocksTests {
    static func parse(_ text: String) throws -> ConfigFile {
        try ConfigFile.parse(Array(text.utf8), file: "blocks.json", environment: [:])
    }

    static func table(retry: String = "", root: String = "") -> String {
        """
        {"tables": [{"name": "t", "request": {"url": "https://api.example.com/v1"}, "items": "data",
          "columns": [{"path": "id"}], "pagination": {"style": "offset"}\(retry)}]\(root)}
        """
    }

    @Test func documentedDefaults() throws {
        let config = try Self.parse(Self.table())
        let upstream = config.upstream
        #expect(upstream.maxConcurrentTransfers == 64 && upstream.maxBodyBytes == 8 << 20 && upstream.maxRedirects == 5)
        #expect(upstream.connectTimeout == .seconds(5))
        #expect(upstream.lowSpeedBytesPerSecond == 16 && upstream.lowSpeedSeconds == 10)
        #expect(upstream.userAgent == "Rowstream/0.1")
        let retry = try #require(config.tables.first).retry
        #expect(retry.maxAttempts == 3 && retry.baseDelay == .milliseconds(250) && retry.maxDelay == .seconds(5))
        #expect(retry.maxRetryAfter == .seconds(30) && !retry.retryNonIdempotent)
    }

    @Test func everyKeyIsRead() throws {
        let config = try Self.parse(Self.table(
            retry: #", "retry": {"attempts": 5, "baseDelaySeconds": 0.5, "maxDelaySeconds": 7, "maxRetryAfterSeconds": 60, "nonIdempotent": true}"#,
            root: #", "upstream": {"maxConcurrentTransfers": 8, "maxBodyBytes": 4096, "maxRedirects": 0, "connectTimeoutSeconds": 1.5, "lowSpeedBytesPerSecond": 100, "lowSpeedSeconds": 3, "userAgent": "agent/2"}"#
        ))
        let upstream = config.upstream
        #expect(upstream.maxConcurrentTransfers == 8 && upstream.maxBodyBytes == 4096 && upstream.maxRedirects == 0)
        #expect(upstream.connectTimeout == .milliseconds(1_500))
        #expect(upstream.lowSpeedBytesPerSecond == 100 && upstream.lowSpeedSeconds == 3 && upstream.userAgent == "agent/2")
        let retry = try #require(config.tables.first).retry
        #expect(retry.maxAttempts == 5 && retry.baseDelay == .milliseconds(500) && retry.maxDelay == .seconds(7))
        #expect(retry.maxRetryAfter == .seconds(60) && retry.retryNonIdempotent)
    }

    @Test(arguments: [
        (#", "upstream": {"maxBodyBytes": 10}"#, "blocks.json: upstream.maxBodyBytes"),
        (#", "upstream": {"userAgent": "a\nb"}"#, "blocks.json: upstream.userAgent"),
        (#", "upstream": {"retries": 1}"#, "blocks.json: upstream.retries: unknown key"),
    ])
    func invalidUpstream(root: String, prefix: String) {
        let error = #expect(throws: ConfigError.self) { try Self.parse(Self.table(root: root)) }
        #expect(error?.description.hasPrefix(prefix) == true, "\(error?.description ?? "no error")")
    }
}
