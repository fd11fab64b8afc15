import Dashboard
import Foundation
import TestSupport
import Testing

/// `--frame-ancestors`, `--allowed-origins`, `--allow-credentials`, and the config's `frameAncestors`,
/// `allowedOrigins` and `allowCredentials` (docs/CONFIG.md, docs/SECURITY.md, docs/EMBED.md).
@Suite("Security options")
struct SecurityOptionTests {
    static func config(_ root: String, layout: String = "") throws -> ConfigFile {
        try ConfigFile.parse(Array("""
        {"tables": [{"name": "items", "request": {"url": "http://127.0.0.1:9/items"}, "items": "data"\(layout),
          "columns": [{"title": "ID", "path": "id"}], "pagination": {"style": "offset"}}]\(root)}
        """.utf8), file: "test.json", environment: [:])
    }

    @Test func theFlagTakesSpaceSeparatedSources() throws {
        var configuration = DashboardConfiguration()
        #expect(configuration.frameAncestors == nil && configuration.server.frameAncestors == ["'none'"])
        _ = try CommandLineOptions.parse(["--frame-ancestors", "'self'  https://intranet.example"], into: &configuration)
        #expect(configuration.frameAncestors == ["'self'", "https://intranet.example"])
        #expect(throws: CommandLineOptions.ParseError.self) {
            try CommandLineOptions.parse(["--frame-ancestors", " "], into: &configuration)
        }
    }

    @Test func theConfigKeysAreStringArrays() throws {
        let config = try Self.config(#", "frameAncestors": ["'self'"], "allowedOrigins": ["https://embed.example"]"#)
        #expect(config.frameAncestors == ["'self'"] && config.allowedOrigins == ["https://embed.example"])
        let plain = try Self.config("")
        #expect(plain.frameAncestors == nil && plain.allowedOrigins.isEmpty)
        #expect(throws: ConfigError.self) { try Self.config(#", "frameAncestors": "'self'""#) }
        #expect(throws: ConfigError.self) { try Self.config(#", "allowedOrigins": [1]"#) }
    }

    @Test func theEmbeddingFlagsTakeOriginsAndOnOff() throws {
        var configuration = DashboardConfiguration()
        _ = try CommandLineOptions.parse(["--allowed-origins", "https://a.example  http://127.0.0.1:8081",
                                          "--allow-credentials", "on"], into: &configuration)
        #expect(configuration.allowedOrigins == ["https://a.example", "http://127.0.0.1:8081"])
        #expect(configuration.allowCredentials == true)
        #expect(throws: CommandLineOptions.ParseError.self) {
            try CommandLineOptions.parse(["--allowed-origins", " "], into: &configuration)
        }
        #expect(throws: CommandLineOptions.ParseError.self) {
            try CommandLineOptions.parse(["--allow-credentials", "yes"], into: &configuration)
        }
        #expect(try Self.config(#", "allowCredentials": true"#).allowCredentials == true)
        #expect(try Self.config("").allowCredentials == nil)
        #expect(throws: ConfigError.self) { try Self.config(#", "allowCredentials": "yes""#) }
    }

    @Test("--allowed-origins and --allow-credentials win over the config: CORS for those origins, with credentials")
    func embeddingFlagsServed() async throws {
        let config = try Self.config(#", "allowedOrigins": ["https://embed.example"], "allowCredentials": false"#)
        let dashboard = try startDashboard(config: config) {
            $0.allowedOrigins = ["http://127.0.0.1:8081"]
            $0.allowCredentials = true
        }
        defer { dashboard.shutdown() }
        let flagged = try await fetch(dashboard.port, "GET", "/embed.js", headers: ["Origin": "http://127.0.0.1:8081"])
        #expect(flagged.headers["access-control-allow-origin"] == "http://127.0.0.1:8081")
        #expect(flagged.headers["access-control-allow-credentials"] == "true")
        // The flag replaced the config's list: that origin gets what every other does (the public file's `*`, no
        // credentials), and none of a table's answers.
        let configured = try await fetch(dashboard.port, "GET", "/embed.js", headers: ["Origin": "https://embed.example"])
        #expect(configured.headers["access-control-allow-origin"] == "*", "the flag replaced the config's list")
        #expect(configured.headers["access-control-allow-credentials"] == nil)
        let page = try await fetch(dashboard.port, "GET", "/tables/items", headers: ["Origin": "https://embed.example"])
        #expect(page.headers["access-control-allow-origin"] == nil)
    }

    @Test("the flag wins over the config; allowedOrigins lets that origin POST; card images widen img-src")
    func served() async throws {
        let config = try Self.config(#", "frameAncestors": ["'self'"], "allowedOrigins": ["https://embed.example"]"#,
                                     layout: #", "grid": {"title": "id", "image": "img"}"#)
        for (flag, ancestors) in [(nil, "'self'"), (["https://intranet.example"], "https://intranet.example")] {
            let dashboard = try startDashboard(config: config) { $0.frameAncestors = flag }
            defer { dashboard.shutdown() }
            let page = try await fetch(dashboard.port, "GET", "/")
            let policy = try #require(page.headers["content-security-policy"])
            #expect(policy.hasSuffix("frame-ancestors \(ancestors)"))
            #expect(policy.contains("img-src 'self' data: https: http:;"), "a grid with upstream images")
            let embed = try await fetch(dashboard.port, "POST", "/tables/items/refresh",
                                        headers: ["Origin": "https://embed.example", "Sec-Fetch-Site": "cross-site"])
            #expect(embed.status == 404, "passed the guard: items is not live")
            let other = try await fetch(dashboard.port, "POST", "/tables/items/refresh",
                                        headers: ["Origin": "https://other.example", "Sec-Fetch-Site": "cross-site"])
            #expect(other.status == 403)
        }
    }
}
