import Dashboard
import Foundation
import Sealing
import TestSupport
import Testing

/// The operator's sealing key file on the dashboard: `--secret-file`, `ROWSTREAM_SECRET_FILE`, the config's
/// `secretFile`; config tables' resume tokens and JSON proxy cursors open on every dashboard with the same file
/// (docs/SCALING.md, "Keys: tokens valid on every instance").
@Suite("Secret file")
struct SecretFileTests {
    static let secret = "fixture-secret-4711"
    static let allKeys = (1...23).map { $0 == 4 ? ConfigFixtureUpstream.bigID : "\($0)" }

    /// A folder with key files `name` -> text, removed by the caller (`folder`).
    private struct KeyFiles {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rowstream-secret-\(UUID())")
        init() throws { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        func write(_ name: String, _ text: String) throws -> String {
            let path = folder.appendingPathComponent(name).path
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
            return path
        }
        func remove() { try? FileManager.default.removeItem(at: folder) }
    }

    /// One dashboard per key file over the same fixture upstream, as instances behind a load balancer.
    private func withDashboards(_ secretFiles: [String], _ body: ([Dashboard]) async throws -> Void) async throws {
        let upstream = try ConfigFixtureUpstream(count: 23, token: Self.secret)
        defer { upstream.stop() }
        let config = try ConfigFile.parse(Array(upstream.config().utf8), file: "fixture.json",
                                          environment: ["FIXTURE_TOKEN": Self.secret])
        var dashboards: [Dashboard] = []
        defer { dashboards.forEach { $0.shutdown() } }
        for file in secretFiles {
            dashboards.append(try startDashboard(config: config) { $0.secretFile = file })
        }
        try await body(dashboards)
    }

    @Test("a config table's resume token from dashboard A resumes on B with the same key file: each row once")
    func resumeOnAnotherInstance() async throws {
        let files = try KeyFiles()
        defer { files.remove() }
        let shared = try files.write("shared", SealingKeyFile.newKey() + "\n")
        let other = try files.write("other", SealingKeyFile.newKey() + "\n")
        try await withDashboards([shared, shared, other]) { dashboards in
            let first = try await SSEClient(port: dashboards[0].port, path: "/tables/things/stream")
            let rows = try await first.next(named: "rows").event
            let token = try #require(rows.id)
            let firstKeys = rowKeys(rows.data)
            first.connection.closeNow()

            let second = try await SSEClient(port: dashboards[1].port, path: "/tables/things/stream", lastEventID: token)
            let (session, early) = try await second.next(named: "session")
            #expect(!early.contains { $0.event == "reset" })
            let next = try #require(try sessionInfo(session)["next"] as? String)
            var keys = firstKeys
            for _ in 0..<10 where keys.count < Self.allKeys.count {
                #expect(try await fetch(dashboards[1].port, "POST", next).status == 202)
                let (more, skipped) = try await second.next(named: "rows")
                #expect(!skipped.contains { $0.event == "reset" })
                keys += rowKeys(more.data)
            }
            #expect(keys == Self.allKeys, "nothing lost, nothing doubled across instances")

            let stranger = try await SSEClient(port: dashboards[2].port, path: "/tables/things/stream", lastEventID: token)
            let (again, skipped) = try await stranger.next(named: "rows")
            #expect(skipped.contains { $0.event == "reset" }, "another key: start over, visibly")
            #expect(rowKeys(again.data) == firstKeys, "from the first row, never misread")
        }
    }

    @Test("the JSON proxy's next cursor opens on another dashboard with the same key file, not with another key")
    func proxyCursorOnAnotherInstance() async throws {
        let files = try KeyFiles()
        defer { files.remove() }
        let shared = try files.write("shared", "# current\n" + SealingKeyFile.newKey() + "\n")
        let other = try files.write("other", SealingKeyFile.newKey() + "\n")
        try await withDashboards([shared, shared, other]) { dashboards in
            let page = try jsonObject(try await fetch(dashboards[0].port, "GET", "/api/tables/things/pages").body)
            let cursor = queryEncoded(try #require(page["next"] as? String))
            let onA = try await fetch(dashboards[0].port, "GET", "/api/tables/things/pages?cursor=\(cursor)")
            let onB = try await fetch(dashboards[1].port, "GET", "/api/tables/things/pages?cursor=\(cursor)")
            #expect(onA.status == 200)
            #expect(onB.status == 200, "\(onB.body)")
            #expect(onB.body == onA.body, "the same next page")
            let onOther = try await fetch(dashboards[2].port, "GET", "/api/tables/things/pages?cursor=\(cursor)")
            #expect(onOther.status == 400, "refused, never misread")
        }
    }

    @Test("a bad key file stops the start with its file and line, never the key; secretFile from the config")
    func badFileAndConfigKey() async throws {
        let files = try KeyFiles()
        defer { files.remove() }
        let short = Data(Array(repeating: UInt8(7), count: 20)).base64EncodedString()
        let bad = try files.write("bad", "# c\n\(short)\n")
        let upstream = try ConfigFixtureUpstream(count: 23, token: Self.secret)
        defer { upstream.stop() }
        let config = try ConfigFile.parse(Array(upstream.config().utf8), file: "fixture.json",
                                          environment: ["FIXTURE_TOKEN": Self.secret])
        let error = try #require(throws: (any Error).self) { try startDashboard(config: config) { $0.secretFile = bad } }
        #expect("\(error)".contains("\(bad) line 2: the key has 20 bytes"), "\(error)")
        #expect(!"\(error)".contains(short))

        var keyed = config
        keyed.secretFile = bad
        #expect(throws: (any Error).self) { try startDashboard(config: keyed) }
        let good = try files.write("good", SealingKeyFile.newKey() + "\n")
        let dashboard = try startDashboard(config: keyed) { $0.secretFile = good }
        dashboard.shutdown()
    }

    @Test("--secret-file, ROWSTREAM_SECRET_FILE, keygen on the command line")
    func commandLine() throws {
        var configuration = DashboardConfiguration()
        _ = try CommandLineOptions.parse(["--secret-file", "/etc/rs/keys"], environment: [:], into: &configuration)
        #expect(configuration.secretFile == "/etc/rs/keys")

        configuration = DashboardConfiguration()
        _ = try CommandLineOptions.parse([], environment: ["ROWSTREAM_SECRET_FILE": "/run/keys"], into: &configuration)
        #expect(configuration.secretFile == "/run/keys")

        configuration = DashboardConfiguration()
        _ = try CommandLineOptions.parse(["--secret-file", "/etc/rs/keys"], environment: ["ROWSTREAM_SECRET_FILE": "/run/keys"],
                                         into: &configuration)
        #expect(configuration.secretFile == "/etc/rs/keys", "the flag beats the environment")

        configuration = DashboardConfiguration()
        _ = try CommandLineOptions.parse([], environment: [:], into: &configuration)
        #expect(configuration.secretFile == nil)
        #expect(throws: CommandLineOptions.ParseError.self) {
            try CommandLineOptions.parse(["--secret-file", ""], environment: [:], into: &configuration)
        }
        #expect(try CommandLineOptions.parse(["keygen"], environment: [:], into: &configuration) == .keygen)
        #expect(try CommandLineOptions.parse(["--public", "Public", "keygen"], environment: [:], into: &configuration) == .keygen,
                "as Scripts/run passes it")
        #expect(throws: CommandLineOptions.ParseError.self) {
            try CommandLineOptions.parse(["keygen", "--port", "1"], environment: [:], into: &configuration)
        }
        #expect(CommandLineOptions.usage.contains("--secret-file FILE"))
    }

    @Test("the config's secretFile: a path, ${NAME} substituted; never empty or not a string")
    func configKey() throws {
        let table = """
            {"name": "t", "request": {"url": "https://api.example.com/t"}, "items": "data", "columns": [{"path": "id"}],
             "pagination": {"style": "cursor", "cursorPath": "next"}}
            """
        func parse(_ secretFile: String) throws -> ConfigFile {
            let text = "{\"secretFile\": \(secretFile), \"tables\": [\(table)]}"
            return try ConfigFile.parse(Array(text.utf8), file: "c.json", environment: ["KEYS": "/run/secrets/rowstream"])
        }
        #expect(try parse("\"/etc/rowstream/keys\"").secretFile == "/etc/rowstream/keys")
        #expect(try parse("\"${KEYS}\"").secretFile == "/run/secrets/rowstream")
        #expect(try ConfigFile.parse(Array("{\"tables\": [\(table)]}".utf8), file: "c.json", environment: [:]).secretFile == nil)
        for bad in ["\"\"", "42", "\"${MISSING}\""] {
            let error = try #require(throws: ConfigError.self) { try parse(bad) }
            #expect("\(error)".contains("secretFile"), "\(error)")
        }
    }
}
