import Dashboard
import Foundation
import TestSupport
import Testing

/// `--frame-ancestors`, and the config's `frameAncestors` and `allowedOrigins` (docs/CONFIG.md, docs/SECURITY.md).
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
