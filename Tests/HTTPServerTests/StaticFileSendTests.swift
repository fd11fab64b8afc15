import Foundation
import TestSupport
import Testing
@testable import HTTPServer

/// Static files over a real socket: pipelined keep-alive requests get every body byte-exact and in order, also
/// behind answers larger than the write buffer's bound and to slow readers, and as the snapshot taken at start.
@Suite struct StaticFileSendTests {
    /// A public folder: `big.txt` (6 MB of numbered lines: more than a socket's send buffer can ever hold, 4 MB at
    /// most, so it is written in pieces; compressible, so it has a gzip variant), `blob.bin` (1 MB of
    /// pseudo-random bytes, no variant) and `small.css`.
    struct Fixture {
        let root: String
        let big: [UInt8]
        let blob: [UInt8]
        let small: [UInt8]

        init() throws {
            root = NSTemporaryDirectory() + "rowstream-sendfile-\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
            var lines: [UInt8] = []
            var line = 0
            while lines.count < 6 * 1024 * 1024 {
                lines += Array("line \(line): <tr><td>\(line * 7919 % 10007)</td></tr>\n".utf8)
                line += 1
            }
            big = lines
            var state: UInt64 = 0x9E37_79B9_7F4A_7C15
            blob = (0..<1024 * 1024).map { _ in
                state ^= state << 13
                state ^= state >> 7
                state ^= state << 17
                return UInt8(truncatingIfNeeded: state)
            }
            small = Array(String(repeating: "body { margin: 0 } ", count: 20).utf8)
            try write(big, "big.txt")
            try write(blob, "blob.bin")
            try write(small, "small.css")
        }

        func write(_ bytes: [UInt8], _ name: String) throws {
            try Data(bytes).write(to: URL(fileURLWithPath: root + "/" + name))
        }

        func remove() { try? FileManager.default.removeItem(atPath: root) }
    }

    typealias Response = (status: Int, headers: [String: String], body: [UInt8])

    /// Reads one response head and its `Content-Length` body (none when `head` or 304), blocking: call it off the
    /// pool (`offPool`).
    static func readResponse(_ client: TestConnection, head: Bool = false) throws -> Response {
        let (status, headers) = try client.readHeadBlocking()
        guard !head, status != 304 else { return (status, headers, []) }
        let length = try #require(headers["content-length"].flatMap(Int.init))
        return (status, headers, try client.readBytesBlocking(length))
    }

    /// Runs `body` with a fresh fixture served by a live server (one loop, then `configure`), its files read at
    /// start; `changeOnDisk` runs after that read and before the first request.
    func withServedFixture(
        _ configure: (inout HTTPServerConfiguration) -> Void = { _ in },
        changeOnDisk: (Fixture) throws -> Void = { _ in },
        _ body: (Fixture, Int) async throws -> Void
    ) async throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let files = try StaticFiles(root: fixture.root)
        try changeOnDisk(fixture)
        try await withLiveServer({ config in
            config.eventLoopCount = 1
            configure(&config)
        }, responder: files) { _, port in try await body(fixture, port) }
    }

    @Test func pipelinedRequestsGetEveryBodyByteExact() async throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let files = try StaticFiles(root: fixture.root)
        guard case .now(let probe) = files.respond(to: HTTPRequest(method: .get, target: "/small.css")) else {
            Issue.record("not answered at once")
            return
        }
        let etag = try #require(probe.headers[HTTPFieldName.eTag])
        try await withLiveServer({ $0.eventLoopCount = 1 }, responder: files) { _, port in
            // A small receive buffer and every request in one write: the server queues head, file, head, file... and
            // the socket takes them some KB at a time.
            let client = try TestConnection(port: port, receiveBufferBytes: 65536)
            try client.send("GET /big.txt HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n\r\n"
                + "HEAD /big.txt HTTP/1.1\r\nHost: x\r\n\r\n"
                + "GET /small.css HTTP/1.1\r\nHost: x\r\nIf-None-Match: \(etag)\r\n\r\n"
                + "GET /blob.bin HTTP/1.1\r\nHost: x\r\n\r\n"
                + "GET /big.txt HTTP/1.1\r\nHost: x\r\n\r\n"
                + "GET /small.css HTTP/1.1\r\nHost: x\r\n\r\n")
            let responses = try await offPool {
                try [false, true, false, false, false, false].map { try Self.readResponse(client, head: $0) }
            }
            let (coded, head, unchanged, blob, big, small) =
                (responses[0], responses[1], responses[2], responses[3], responses[4], responses[5])
            #expect(coded.status == 200 && coded.headers["content-encoding"] == "gzip")
            #expect(try GzipDecoder.decode(coded.body) == fixture.big, "the gzip variant decodes to the file")
            #expect(head.status == 200 && head.headers["content-length"] == "\(fixture.big.count)")
            #expect(unchanged.status == 304 && unchanged.headers["content-length"] == nil)
            #expect(blob.status == 200 && blob.body == fixture.blob)
            #expect(big.status == 200 && big.headers["content-encoding"] == nil && big.body == fixture.big)
            #expect(small.status == 200 && small.body == fixture.small)
            #expect(!client.hasInput(), "bytes after the last response")
        }
    }

    /// Pipelined requests behind an answer larger than the write buffer's bound: the server holds them back, writes,
    /// and answers them once the socket took the answer, even when it took it all in that one write.
    @Test func requestsHeldBackByTheWriteBoundAreAnsweredOnceItDrains() async throws {
        try await withServedFixture({ config in
            config.maxWriteBufferBytes = 256   // less than one answer: every request waits for the one before
            config.requestHeadTimeout = .seconds(600)
        }) { fixture, port in
            let client = try TestConnection(port: port, timeoutSeconds: 5)
            try client.send(String(repeating: "GET /small.css HTTP/1.1\r\nHost: x\r\n\r\n", count: 3))
            let responses = try await offPool { try (0..<3).map { _ in try Self.readResponse(client) } }
            #expect(responses.map(\.body) == Array(repeating: fixture.small, count: 3))
        }
    }

    /// A reader that stops reading: the pipelined request behind a large answer waits, held back by the server
    /// (its answer would pass the write buffer's bound), for longer than a request may take to arrive. It is not
    /// late: once the first answer drains it is answered, not timed out with 408.
    @Test func aPipelinedRequestHeldBackBehindALargeAnswerIsNotTimedOut() async throws {
        try await withServedFixture({ $0.requestHeadTimeout = .milliseconds(300) }) { fixture, port in
            let client = try TestConnection(port: port, receiveBufferBytes: 65536)
            try client.send("GET /big.txt HTTP/1.1\r\nHost: x\r\n\r\nGET /small.css HTTP/1.1\r\nHost: x\r\n\r\n")
            let (first, second) = try await offPool {
                let head = try client.readHeadBlocking()
                // Not reading: the server's sweep passes the head timeout several times meanwhile.
                Thread.sleep(forTimeInterval: 1.5)
                let body = try client.readBytesBlocking(fixture.big.count)
                return ((head.status, body), try Self.readResponse(client))
            }
            #expect(first.0 == 200 && first.1 == fixture.big)
            #expect(second.status == 200 && second.body == fixture.small, "got \(second.status)")
        }
    }

    @Test func aResponseIsTheSnapshotTakenAtStartWhateverHappensToTheFileLater() async throws {
        // Rewritten and cut short on disk after the start: the server still sends what it read.
        try await withServedFixture(changeOnDisk: { fixture in
            try fixture.write(Array(repeating: UInt8(ascii: "x"), count: fixture.big.count), "big.txt")
            try fixture.write(Array(fixture.blob.prefix(10)), "blob.bin")
        }) { fixture, port in
            // `Connection: close`: the server closes once the last file byte is sent.
            let client = try TestConnection(port: port, receiveBufferBytes: 65536)
            try client.send("GET /big.txt HTTP/1.1\r\nHost: x\r\n\r\nGET /blob.bin HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            let (first, last, closed) = try await offPool {
                (try Self.readResponse(client), try Self.readResponse(client), try client.isClosedByServerBlocking())
            }
            #expect(first.body == fixture.big)
            #expect(last.headers["connection"] == "close" && last.body == fixture.blob)
            #expect(closed)
        }
    }
}
