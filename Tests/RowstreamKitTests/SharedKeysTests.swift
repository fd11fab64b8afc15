import Foundation
import HTTPServerTesting
import RowstreamKit
import RowstreamTesting
import TestSupport
import Testing

/// Servers that share sealing keys read each other's resume tokens, as do the same server's restarts; a server
/// without the sealing key starts the viewer over (docs/SCALING.md, "Keys: tokens valid on every instance").
@Suite("Sealing keys shared by instances")
struct SharedKeysTests {
    static let keyA: [UInt8] = Array(repeating: 0xA1, count: 32)
    static let keyB: [UInt8] = Array(repeating: 0xB2, count: 32)

    /// A server of its own (a binding of its own, as in another process) sealing with `keys`.
    private func server(_ keys: SealingKeys) throws -> RowstreamTestServer {
        var configuration = ServerConfiguration()
        configuration.sealingKeys = keys
        return try RowstreamTestServer([peopleTable(offsetSource(people(30)))], configuration: configuration)
    }

    /// The first batch's rows and resume token (its `id`) from a server sealing with `keys`.
    private func firstBatch(_ server: RowstreamTestServer) async throws -> (keys: [String], token: String) {
        let stream = try await server.client.stream("/tables/people/stream")
        defer { stream.close() }
        let rows = try await stream.next(named: "rows").event
        return (rowKeys(rows.data), try #require(rows.id))
    }

    /// Every row after reconnecting with `token` to `server`, and whether the server said `reset`. A resumed
    /// stream waits for demand; one that starts over (`reset` after `session`) loads its first batch at once:
    /// `resumes` says which the test expects (the other makes it fail: rows again from p1, or no rows).
    private func resume(_ server: RowstreamTestServer, token: String, resumes: Bool = true) async throws
        -> (keys: [String], reset: Bool)
    {
        let stream = try await server.client.stream("/tables/people/stream", lastEventID: token)
        defer { stream.close() }
        let (session, skippedBeforeSession) = try await stream.next(named: "session")
        let next = try #require(try object(session.data)["next"] as? String)
        var keys: [String] = []
        var reset = skippedBeforeSession.contains { $0.event == "reset" }
        if resumes { #expect(await server.client.post(next).status == .accepted) }
        for _ in 0..<4 {
            let (rows, skipped) = try await stream.next(named: "rows")
            reset = reset || skipped.contains { $0.event == "reset" }
            keys += rowKeys(rows.data)
            if keys.last == "p30" { break }
            #expect(await server.client.post(next).status == .accepted)
        }
        return (keys, reset)
    }

    @Test("a resume token from server A resumes on server B with the same key: the rest, each row once")
    func otherInstance() async throws {
        let a = try server(try SealingKeys(current: Self.keyA))
        defer { a.shutdown() }
        let b = try server(try SealingKeys(current: Self.keyA))
        defer { b.shutdown() }
        let first = try await firstBatch(a)
        let rest = try await resume(b, token: first.token)
        #expect(!rest.reset)
        #expect(first.keys + rest.keys == (1...30).map { "p\($0)" }, "nothing lost, nothing doubled")
    }

    @Test("after a restart with the same key file, a token resumes; rotated keys still open it")
    func restartAndRotation() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rowstream-shared-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("secret").path
        let oldKey = SealingKeyFile.newKey()
        try Data("\(oldKey)\n".utf8).write(to: URL(fileURLWithPath: file))

        let before = try server(try SealingKeyFile.load(path: file))
        let first = try await firstBatch(before)
        before.shutdown()

        let restarted = try server(try SealingKeyFile.load(path: file))
        defer { restarted.shutdown() }
        let rest = try await resume(restarted, token: first.token)
        #expect(!rest.reset)
        #expect(first.keys + rest.keys == (1...30).map { "p\($0)" })

        // Rotation: a new key on top seals, the old one below still opens the old token.
        try Data("\(SealingKeyFile.newKey())\n\(oldKey)\n".utf8).write(to: URL(fileURLWithPath: file))
        let rotated = try server(try SealingKeyFile.load(path: file))
        defer { rotated.shutdown() }
        let afterRotation = try await resume(rotated, token: first.token)
        #expect(!afterRotation.reset)
        #expect(first.keys + afterRotation.keys == (1...30).map { "p\($0)" })
    }

    @Test("a server with only another key answers reset and starts over; a server without a key too")
    func otherKeyStartsOver() async throws {
        let a = try server(try SealingKeys(current: Self.keyA))
        defer { a.shutdown() }
        let first = try await firstBatch(a)
        for keys in [try SealingKeys(current: Self.keyB), SealingKeys.random()] {
            let other = try server(keys)
            defer { other.shutdown() }
            let again = try await resume(other, token: first.token, resumes: false)
            #expect(again.reset, "a token it cannot open starts the viewer over, visibly")
            #expect(again.keys == (1...30).map { "p\($0)" }, "from the first row, never misread")
        }
    }

    @Test("a listening server without configured keys says so once at start; with keys it says nothing")
    func noticeWithoutKeys() throws {
        for keys in [SealingKeys.random(), try SealingKeys(current: Self.keyA)] {
            let logger = RecordingLogger()
            var configuration = ServerConfiguration()
            configuration.port = 0
            configuration.eventLoopCount = 1
            configuration.logger = logger
            configuration.sealingKeys = keys
            let server = try RowstreamServer.start([peopleTable(offsetSource(people(3)))], configuration: configuration)
            server.shutdown()
            let notices = logger.messages.filter { $0.contains("sealing key") }
            if keys.isEphemeral {
                #expect(notices.count == 1)
                #expect(notices.first?.hasPrefix("info: no sealing key configured: resume tokens will not survive a restart") == true)
                #expect(notices.first?.contains("--secret-file") == true)
            } else {
                #expect(notices.isEmpty)
            }
        }
    }
}
