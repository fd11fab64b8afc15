import Foundation
import Testing
import TestSupport
@testable import HTTPServer

/// A connection waiting for a deferred (`.later`) answer (issue 13, item 1): it buffers at most one pipelined
/// request head however much the client sends, and the wait has a deadline.
@Suite(.serialized) struct LivePendingTests {
    /// `/slow` answers once the test releases `gate` (TestSupport's: a cancelled waiter goes on at once, counted).
    static func responder(_ gate: ReplyGate) -> Router {
        var builder = RouterBuilder()
        builder.get("/slow") { _, _ in .later { _ = await gate.pass(); return .text("slow answer") } }
        builder.get("/fast") { _, _ in .now(.text("fast answer")) }
        return builder.build()
    }

    /// Sends `total` bytes of "x" without blocking; stops early once the socket has taken nothing for `stallMS`
    /// (the server stopped reading and the kernel buffers are full). Returns the bytes sent. Blocking: off the pool.
    static func flood(_ fd: Int32, total: Int, stallMS: Int32) -> Int {
        let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 64 * 1024)
        var sent = 0
        while sent < total {
            let n = chunk.withUnsafeBytes {
                send(fd, $0.baseAddress, min($0.count, total - sent), Int32(MSG_DONTWAIT | MSG_NOSIGNAL))
            }
            if n > 0 {
                sent += n
            } else if n < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR {
                var entry = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                if poll(&entry, 1, stallMS) == 0 { break }
            } else {
                break
            }
        }
        return sent
    }

    @Test func aPendingAnswerBuffersAtMostOneRequestHeadOfWhatFollows() async throws {
        let gate = ReplyGate()
        defer { gate.releaseAll() }
        try await withLiveServer(responder: Self.responder(gate)) { server, port in
            let limits = HTTPParserLimits()
            let cap = Connection.maxPendingInput(limits)
            let client = try TestConnection(port: port)
            try client.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await eventually { gate.arrived == 1 })
            // 64 MiB after the request on the same socket (the probe sent 2,000 x 1 MiB and the server grew by 2 GB).
            let fd = client.fd
            let sent = try await offPool { Self.flood(fd, total: 64 << 20, stallMS: 2_000) }
            #expect(sent > 2 * cap, "the kernel buffers alone take more than this")
            let buffered = try await offPool { server.largestBufferedInput() }
            #expect(buffered <= cap, "\(buffered) bytes buffered after \(sent) sent")
            #expect(sent < 64 << 20, "the server read everything while the answer was pending")

            // Pipelining still works: the answer comes, then the flood is read as the next request (a 414).
            gate.releaseAll()
            let answer = try await client.readResponse()
            #expect(answer.status == 200)
            #expect(answer.body == "slow answer")
            let refusal = try await client.readHead()
            #expect(refusal.status == 414)
        }
    }

    @Test func aPendingAnswerPastItsDeadlineGets504AndTheWorkIsCancelled() async throws {
        let gate = ReplyGate()
        defer { gate.releaseAll() }
        try await withLiveServer({ $0.responseTimeout = .milliseconds(300) },
                                 responder: Self.responder(gate)) { server, port in
            let client = try TestConnection(port: port)
            try client.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\nGET /fast HTTP/1.1\r\nHost: x\r\n\r\n")
            let response = try await client.readResponse()
            #expect(response.status == 504)
            #expect(response.headers["connection"] == "close")
            #expect(response.headers["x-content-type-options"] == "nosniff")
            #expect(try await client.isClosedByServer(), "the pipelined request after it is not answered")
            #expect(await eventually { gate.cancelled == 1 })
            #expect(await eventually { server.statistics.openConnections == 0 })

            // The deadline counts per request: a quick answer on a new connection is unaffected.
            let other = try TestConnection(port: port)
            #expect(try await other.exchange("GET", "/fast").body == "fast answer")
        }
    }
}
