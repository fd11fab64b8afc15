@testable import Dashboard
import Foundation
import HTTPServer
import JSON
import RowstreamKit
import TestSupport
import Testing

/// The demo's bench mode (`--bench-stamp on`), which `Scripts/bench fanout` drives: stamped names on every page,
/// and a live demo table whose every refresh broadcasts an `update` of the head.
@Suite("Bench mode")
struct BenchModeTests {
    @Test("--bench-stamp on turns the mode on; other values are refused")
    func flag() throws {
        var configuration = DashboardConfiguration()
        #expect(!configuration.demo.benchStamp)
        _ = try CommandLineOptions.parse(["--bench-stamp", "on"], into: &configuration)
        #expect(configuration.demo.benchStamp)
        _ = try CommandLineOptions.parse(["--bench-stamp", "off"], into: &configuration)
        #expect(!configuration.demo.benchStamp)
        #expect(throws: CommandLineOptions.ParseError.self) {
            try CommandLineOptions.parse(["--bench-stamp", "yes"], into: &configuration)
        }
    }

    @Test("each page's names carry the time and the page request's number; the other fields are the demo's")
    func stampedPages() async throws {
        var configuration = DemoUpstream.Configuration()
        configuration.itemCount = 10
        configuration.latency = .zero
        configuration.benchStamp = true
        let upstream = DemoUpstream(configuration: configuration)
        let before = Int64(Date().timeIntervalSince1970 * 1_000_000)
        let first = try await page(upstream)
        let second = try await page(upstream)
        let after = Int64(Date().timeIntervalSince1970 * 1_000_000)
        let stamps = try [first, second].map { records in try records.map(Self.stamp) }
        #expect(stamps[0].count == 3 && stamps[1].count == 3)
        #expect(Set(stamps[0].map(\.seq)) == [1] && Set(stamps[1].map(\.seq)) == [2], "one number per page request")
        for stamp in stamps.joined() { #expect(stamp.ts >= before && stamp.ts <= after + 1) }
        let plain = DemoData(count: 10).items(in: 0..<3)
        for (stamped, original) in zip(first, plain) {
            #expect(stamped["id"] == original["id"] && stamped["city"] == original["city"])
            #expect(stamped["name"] != original["name"])
        }
    }

    @Test("a refresh of the live demo table broadcasts one update of every head row, stamped anew")
    func refreshBroadcasts() async throws {
        let dashboard = try startDashboard(items: 20, batchSize: 4) { $0.benchStamp = true }
        defer { dashboard.shutdown() }
        let viewers = [
            try await SSEClient(port: dashboard.port, path: "/tables/customers/stream"),
            try await SSEClient(port: dashboard.port, path: "/tables/customers/stream"),
        ]
        for viewer in viewers { _ = try await viewer.next(named: "rows") }
        var seen: [String] = []
        for round in 0..<2 {
            let answer = try await fetch(dashboard.port, "POST", "/tables/customers/refresh")
            #expect(answer.status == 200)
            #expect(answer.body.contains("\"updated\":4"), "round \(round): \(answer.body)")
            let updates = [try await viewers[0].next(named: "update").event.data,
                           try await viewers[1].next(named: "update").event.data]
            #expect(updates[0] == updates[1], "the same bytes to every viewer")
            #expect(rowKeys(updates[0]) == ["1", "2", "3", "4"])
            #expect(updates[0].components(separatedBy: ">ts=").count == 5, "every row stamped")   // (not points=)
            seen.append(updates[0])
        }
        #expect(seen[0] != seen[1], "each refresh stamps anew")
    }

    @Test("bench mode publishes through refresh far past the standard rate limit: no POST gets 429")
    func refreshIsNotRateLimited() async throws {
        let dashboard = try startDashboard(items: 20, batchSize: 4) { $0.benchStamp = true }
        defer { dashboard.shutdown() }
        let burst = RefreshLimit.standard.burst * 4
        for round in 0..<burst {
            let answer = try await fetch(dashboard.port, "POST", "/tables/customers/refresh")
            #expect(answer.status == 200, "POST \(round + 1) of \(burst): \(answer.status)")
        }
    }

    private func page(_ upstream: DemoUpstream) async throws -> [JSONValue] {
        let request = HTTPRequest(method: .get, target: "/v1/customers?limit=3", headers: [:], body: [])
        let response: HTTPResponse
        switch upstream.respond(to: request) {
        case .now(let made): response = made
        case .later(let make): response = await make()
        }
        guard case .bytes(let bytes) = response.body, case .array(let records)? = try JSONValue.parse(bytes)["data"] else {
            throw TestConnection.Failure(description: "not a page")
        }
        return records
    }

    /// `ts=N seq=N ...` of a stamped record's name.
    private static func stamp(_ record: JSONValue) throws -> (ts: Int64, seq: Int) {
        guard case .string(let name)? = record["name"] else { throw TestConnection.Failure(description: "no name") }
        let fields = name.split(separator: " ")
        guard fields.count >= 2, fields[0].hasPrefix("ts="), fields[1].hasPrefix("seq="),
              let ts = Int64(fields[0].dropFirst(3)), let seq = Int(fields[1].dropFirst(4)) else {
            throw TestConnection.Failure(description: "not stamped: \(name)")
        }
        return (ts, seq)
    }
}
