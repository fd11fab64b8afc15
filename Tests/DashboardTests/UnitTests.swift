@testable import Dashboard
import RowstreamKit
import HTTPServer
import JSON
import TestSupport
import Testing

@Suite("Resume tokens")
struct ResumeTokenTests {
    @Test("round trip for every position")
    func roundTrip() {
        let positions: [ResumeToken.Position] = [.start, .after(cursor: "cur_1z/+=?&"), .end, .finished]
        for position in positions {
            let token = ResumeToken(table: "customers", offset: position == .start ? 0 : 120, position: position)
            let encoded = token.encoded()
            #expect(encoded.allSatisfy { $0.isLetter || $0.isNumber || "._-".contains($0) }, "safe in an id: field")
            #expect(ResumeToken(decoding: encoded, table: "customers") == token)
        }
    }

    @Test("garbage, other tables and other versions decode to nil")
    func rejects() {
        let valid = ResumeToken(table: "customers", offset: 3, position: .end).encoded()
        #expect(ResumeToken(decoding: valid, table: "orders") == nil)
        #expect(ResumeToken(decoding: "v2." + valid.dropFirst(3), table: "customers") == nil)
        for garbage in ["", "v1.", "v1.!!!", "v1.e30", String(repeating: "A", count: 10_000), "v1.eyJ0IjoxfQ"] {
            #expect(ResumeToken(decoding: garbage, table: "customers") == nil)
        }
    }
}

@Suite("Command line")
struct CommandLineTests {
    @Test("flags fill the configuration")
    func flags() throws {
        var configuration = DashboardConfiguration()
        let parsed = try CommandLineOptions.parse(
            ["--host", "0.0.0.0", "--port", "0", "--batch-size", "25", "--demo-latency-ms", "5", "--demo-fail-every", "4"],
            into: &configuration
        )
        #expect(parsed == .run)
        #expect(configuration.server.host == "0.0.0.0")
        #expect(configuration.server.port == 0)
        #expect(configuration.batchSize == 25)
        #expect(configuration.demo.latency == .milliseconds(5))
        #expect(configuration.demo.failEvery == 4)
    }

    @Test("bad flags are clear errors", arguments: [["--port"], ["--port", "x"], ["--port", "70000"], ["--bogus", "1"], ["--batch-size", "0"]])
    func badFlags(arguments: [String]) {
        var configuration = DashboardConfiguration()
        #expect(throws: CommandLineOptions.ParseError.self) {
            try CommandLineOptions.parse(arguments, into: &configuration)
        }
    }
}

@Suite("Demo upstream")
struct DemoUpstreamTests {
    private func get(_ upstream: DemoUpstream, _ target: String) async -> HTTPResponse {
        switch upstream.respond(to: HTTPRequest(method: .get, target: target, headers: [:], body: [])) {
        case .now(let response): return response
        case .later(let make): return await make()
        }
    }

    private func json(_ response: HTTPResponse) throws -> JSONValue {
        guard case .bytes(let bytes) = response.body else {
            Issue.record("the demo upstream answered with a stream")
            return .null
        }
        return try JSONValue.parse(bytes)
    }

    @Test("the cursor walk visits every item once; the data is deterministic")
    func cursorWalk() async throws {
        var configuration = DemoUpstream.Configuration()
        configuration.itemCount = 23
        configuration.latency = .zero
        let upstream = DemoUpstream(configuration: configuration)
        var ids: [Int64] = []
        var cursor = ""
        for _ in 0..<10 {
            let page = try json(await get(upstream, "/v1/customers?limit=5&cursor=\(cursor)"))
            ids += (page["data"]?.arrayValue ?? []).compactMap { $0["id"]?.intValue }
            guard let next = page["next_cursor"]?.stringValue else { break }
            cursor = next
        }
        #expect(ids == Array(1...23))
        #expect(DemoData(count: 5).item(at: 3) == DemoData(count: 9).item(at: 3))
    }

    @Test("bad input gets a clear 400; failures are injected on schedule")
    func badInput() async throws {
        var configuration = DemoUpstream.Configuration()
        configuration.latency = .zero
        configuration.failEvery = 2
        let upstream = DemoUpstream(configuration: configuration)
        #expect(await get(upstream, "/v1/customers?limit=0").status == .badRequest)
        #expect(await get(upstream, "/v1/customers?cursor=zzz").status == .serviceUnavailable)
        #expect(await get(upstream, "/v1/customers?cursor=zzz").status == .badRequest)
        #expect(await get(upstream, "/nope").status == .notFound)
    }
}
