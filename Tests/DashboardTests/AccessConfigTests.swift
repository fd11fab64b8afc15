import Dashboard
import Foundation
import RowstreamKit
import TestSupport
import Testing

/// The config's `access`, `--access`, and the executable's refusal and token subcommands (docs/SECURITY.md).
@Suite("Access: config, command line, executable")
struct AccessConfigTests {
    static let digest = APIToken.hash("the-token")

    static func parse(_ access: String) throws(ConfigError) -> ConfigFile {
        let text = """
        {"tables": [{"name": "items", "request": {"url": "https://api.example.com/v1/items"}, "items": "data",
          "columns": [{"title": "ID", "path": "id"}], "pagination": {"style": "cursor", "cursorPath": "next"}},
          {"name": "other", "request": {"url": "https://api.example.com/v1/other"}, "items": "data",
          "columns": [{"title": "ID", "path": "id"}], "pagination": {"style": "cursor", "cursorPath": "next"}}],
         "pages": [{"name": "both", "tables": ["items", "other"]}],
         "access": \(access)}
        """
        return try ConfigFile.parse(Array(text.utf8), file: "test.json", environment: [:])
    }

    @Test("access: a mode name, or the full object with tokens, proxy, allow lists and the metrics rule")
    func parses() throws {
        #expect(try Self.parse(#""none""#).access == AccessConfiguration(mode: .open))
        let access = try #require(try Self.parse("""
            {"mode": "proxy",
             "tokens": [{"name": "ci", "sha256": "\(Self.digest)", "groups": ["ops"], "expires": "2027-01-31T00:00:00Z"}],
             "proxy": {"addresses": ["10.0.0.2"], "userHeader": "X-Auth-User"},
             "tables": {"items": {"users": ["ci"], "groups": ["ops"]}},
             "pages": {"both": {"groups": ["staff"]}},
             "metrics": {"addresses": ["10.0.0.9"], "tokens": [{"name": "prom", "sha256": "\(Self.digest)"}]}}
            """).access)
        #expect(access.mode == .proxy)
        #expect(access.tokens.map(\.name) == ["ci"] && access.tokens[0].groups == ["ops"])
        #expect(access.tokens[0].expires == Date(timeIntervalSince1970: 1_801_353_600))
        #expect(access.proxy?.addresses == [0x0A00_0002] && access.proxy?.userHeader == "X-Auth-User")
        #expect(access.proxy?.groupsHeader == "X-Forwarded-Groups")
        #expect(access.tables["items"] == AllowList(users: ["ci"], groups: ["ops"]))
        #expect(access.pages["both"] == AllowList(groups: ["staff"]))
        #expect(access.metrics?.addresses == [0x0A00_0009] && access.metrics?.tokens.map(\.name) == ["prom"])
        #expect(try Self.parse(#"{"tables": {}}"#).access?.mode == nil, "the mode may come from --access")
    }

    @Test("users: crypt(3) hashes, session hours, secure cookies")
    func users() throws {
        let hash = try #require(PasswordHash.make("pw"))
        let access = try #require(try Self.parse("""
            {"mode": "users", "users": [{"name": "alice", "password": "\(hash)", "groups": ["finance"]}],
             "sessionHours": 2, "secureCookies": true}
            """).access)
        #expect(access.mode == .users && access.users.map(\.name) == ["alice"] && access.users[0].groups == ["finance"])
        #expect(access.sessionLifetime == .seconds(7_200) && access.secureCookies)
        #expect(PasswordHash.verify("pw", hash: access.users[0].passwordHash))
        for (users, message) in [
            (#"[{"name": "alice", "password": "pw"}]"#, "test.json: access.users[0].password: a crypt(3) hash"),
            (#"[{"name": "a|b", "password": "\#(hash)"}]"#, "test.json: access.users[0].name: 1 to 64 printable"),
            (#"[{"name": "a", "password": "\#(hash)"}, {"name": "a", "password": "\#(hash)"}]"#,
             "test.json: access.users[1].name: a name no other user uses"),
        ] {
            #expect(throws: ConfigError.self) { try Self.parse(#"{"users": \#(users)}"#) }
            do { _ = try Self.parse(#"{"users": \#(users)}"#) } catch { #expect(error.description.hasPrefix(message), "\(error)") }
        }
    }

    @Test(arguments: [
        (#""open""#, "test.json: access: an access mode: none, tokens, proxy, users"),
        (#"{"mode": "users!"}"#, "test.json: access.mode: an access mode"),
        (#"{"tokens": [{"name": "ci", "sha256": "the-token"}]}"#, "test.json: access.tokens[0].sha256: 64 hex digits"),
        (#"{"tokens": [{"name": "ci", "token": "x"}]}"#, "test.json: access.tokens[0].sha256"),
        (#"{"tables": {"nope": {"users": ["a"]}}}"#, "test.json: access.tables.nope: the name of a table in this file"),
        (#"{"pages": {"nope": {}}}"#, "test.json: access.pages.nope: the name of a page in this file"),
        (#"{"proxy": {"addresses": ["10.0.0"]}}"#, "test.json: access.proxy.addresses: an array of IPv4 addresses"),
        (#"{"tables": {"items": {"user": ["a"]}}}"#, "test.json: access.tables.items.user: unknown key"),
        (#"{"tokens": [{"name": "ci", "sha256": "\#(digest)", "expires": "soon"}]}"#, "test.json: access.tokens[0].expires"),
        (#"{"mdoe": "tokens"}"#, "test.json: access.mdoe: unknown key"),
        (#"{"mode": "tokens"}"#, "test.json: access: a consistent access configuration: access mode tokens needs at least one token"),
        (#"{"mode": "none", "tables": {"items": {"users": ["a"]}}}"#, "test.json: access: a consistent access configuration: allow lists need"),
    ])
    func refuses(access: String, message: String) {
        do {
            _ = try Self.parse(access)
            Issue.record("accepted \(access)")
        } catch {
            #expect(error.description.hasPrefix(message), "\(error.description)")
        }
    }

    @Test("--access chooses the mode; anything but a mode name is refused")
    func commandLine() throws {
        var configuration = DashboardConfiguration()
        _ = try CommandLineOptions.parse(["--access", "tokens"], environment: [:], into: &configuration)
        #expect(configuration.accessMode == .tokens)
        _ = try CommandLineOptions.parse(["--access", "none"], environment: [:], into: &configuration)
        #expect(configuration.accessMode == .open)
        #expect(throws: CommandLineOptions.ParseError.self) {
            try CommandLineOptions.parse(["--access", "users!"], environment: [:], into: &configuration)
        }
        #expect(try CommandLineOptions.parse(["hash-token"], environment: [:], into: &configuration) == .hashToken)
    }

    @Test("the executable refuses --host 0.0.0.0 without an access mode, saying how; hash-token hashes standard input")
    func executable() async throws {
        try #require(RowstreamProcess.isBuilt, "build the rowstream product first")
        let (status, _, errors) = try await RowstreamProcess.run(["--host", "0.0.0.0", "--port", "0"])
        #expect(status == 1)
        #expect(errors.contains("--access") && errors.contains("docs/SECURITY.md"), "\(errors)")
        let path = RowstreamProcess.executable.path
        let process = try SpawnedProcess("/bin/sh", ["-c", "printf 'the-token\\n' | '\(path)' hash-token"], environment: [:])
        let output = try await offPool { String(decoding: process.output.readDataToEndOfFile(), as: UTF8.self) }
        try await offPool { try process.waitUntilExit() }
        #expect(output == Self.digest + "\n")
    }
}
