import RowstreamKit
import TestSupport
import Testing

/// ``ServerConfiguration/responseTimeout`` reaches the HTTP server (docs/CONFIG.md, `--response-timeout-seconds`).
@Suite struct ResponseTimeoutTests {
    @Test("a batch fetched again that outlives the response timeout is cancelled and answered 504")
    func deferredAnswerTimesOut() async throws {
        let gate = ReplyGate()
        defer { gate.releaseAll() }
        let source = BatchSource<Person, Int>(initialToken: 0) { _ in
            guard await gate.pass() else { throw CancellationError() }
            return .completed([])
        }
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.eventLoopCount = 1
        configuration.responseTimeout = .seconds(1)
        configuration.batchTimeout = .seconds(3_600)
        let server = try RowstreamServer.start([peopleTable(source)], configuration: configuration)
        defer { server.shutdown() }
        let connection = try TestConnection(port: server.port)
        try connection.send("GET /tables/people/rows HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(try await connection.readResponse().status == 504)
        #expect(await eventually { gate.cancelled == 1 }, "its load was cancelled")
    }
}
