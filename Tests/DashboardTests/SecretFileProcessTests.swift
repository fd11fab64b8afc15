import Foundation
import Sealing
import TestSupport
import Testing

/// The sealing key file as an operator uses it: `rowstream keygen`, then `--secret-file` (or
/// `ROWSTREAM_SECRET_FILE`) on each process; a restarted process reads the tokens of the one before it.
@Suite("rowstream with a secret file")
struct SecretFileProcessTests {
    private static func arguments(_ extra: [String]) -> [String] {
        ["--port", "0", "--demo-items", "30", "--demo-latency-ms", "0", "--batch-size", "10", "--public", publicDirectory]
            + extra
    }

    @Test("keygen's key in --secret-file: a token from one process resumes on the next; without a key: notice, reset")
    func restartWithTheSameKey() async throws {
        try #require(RowstreamProcess.isBuilt, "build the rowstream product first")
        let (status, key, _) = try await RowstreamProcess.run(["keygen"])
        #expect(status == 0)
        #expect(Data(base64Encoded: key.trimmingCharacters(in: .newlines))?.count == 32)
        let path = try RowstreamProcess.temporaryFile(key)
        defer { try? FileManager.default.removeItem(atPath: path) }
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)

        let first = try await RowstreamProcess.start(Self.arguments(["--secret-file", path]))
        defer { first.kill() }
        let stream = try await SSEClient(port: first.port, path: "/tables/customers/stream")
        let rows = try await stream.next(named: "rows").event
        let firstKeys = rowKeys(rows.data)
        let token = try #require(rows.id)
        stream.connection.closeNow()
        first.terminate()
        let firstErrors = try await first.errors()
        #expect(!firstErrors.contains("no sealing key configured"), "\(firstErrors)")

        // The restart: another process, the key file named by the environment this time.
        let second = try await RowstreamProcess.start(Self.arguments([]), environment: ["ROWSTREAM_SECRET_FILE": path])
        defer { second.kill() }
        let resumed = try await SSEClient(port: second.port, path: "/tables/customers/stream", lastEventID: token)
        let (session, early) = try await resumed.next(named: "session")
        let next = try #require(try sessionInfo(session)["next"] as? String)
        #expect(try await fetch(second.port, "POST", next).status == 202)
        let (more, skipped) = try await resumed.next(named: "rows")
        #expect(!(early + skipped).contains { $0.event == "reset" }, "the token opened after the restart")
        let moreKeys = rowKeys(more.data)
        #expect(moreKeys.count == 10 && Set(moreKeys).isDisjoint(with: firstKeys), "\(firstKeys) then \(moreKeys)")

        // A process without the key: the same token starts over, visibly; it said at start why.
        let keyless = try await RowstreamProcess.start(Self.arguments([]), environment: ["ROWSTREAM_SECRET_FILE": ""])
        defer { keyless.kill() }
        let over = try await SSEClient(port: keyless.port, path: "/tables/customers/stream", lastEventID: token)
        let (again, before) = try await over.next(named: "rows")
        #expect(before.contains { $0.event == "reset" })
        #expect(rowKeys(again.data) == firstKeys, "from the first row, never misread")
        keyless.terminate()
        let keylessErrors = try await keyless.errors()
        #expect(keylessErrors.contains("rowstream: no sealing key configured: resume tokens will not survive a restart"))
    }

    @Test("--check-config reads the key file too: its key count, or the start-up error, never a key")
    func checkConfigReadsTheKeyFile() async throws {
        try #require(RowstreamProcess.isBuilt, "build the rowstream product first")
        let upstream = try ConfigFixtureUpstream(count: 12, token: "t0ken-1")
        defer { upstream.stop() }
        let config = try RowstreamProcess.temporaryFile(upstream.config())
        defer { try? FileManager.default.removeItem(atPath: config) }
        let key = SealingKeyFile.newKey()
        let good = try RowstreamProcess.temporaryFile("# now\n\(key)\n\(SealingKeyFile.newKey())\n")
        defer { try? FileManager.default.removeItem(atPath: good) }
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: good)
        let bad = try RowstreamProcess.temporaryFile("\(key.prefix(20))\n")
        defer { try? FileManager.default.removeItem(atPath: bad) }

        let (status, output, _) = try await RowstreamProcess.run(["--check-config", config, "--secret-file", good],
                                                                 environment: ["FIXTURE_TOKEN": "t0ken-1"])
        #expect(status == 0)
        #expect(output.contains("\(good): 2 sealing key(s), the first seals"), "\(output)")
        #expect(!output.contains(key))

        let (failed, _, errors) = try await RowstreamProcess.run(["--check-config", config],
                                                                 environment: ["FIXTURE_TOKEN": "t0ken-1",
                                                                               "ROWSTREAM_SECRET_FILE": bad])
        #expect(failed == 1)
        #expect(errors.contains("\(bad) line 1: "), "\(errors)")
        #expect(!errors.contains(String(key.prefix(20))))
    }
}
