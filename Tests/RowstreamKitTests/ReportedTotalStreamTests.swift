import Foundation
import HTTPServerTesting
import RowstreamKit
import RowstreamTesting
import TestSupport
import Testing

/// Issue 28, "how much": a code table's loader reports the list's total (``RowRequest/reportTotal(_:)``); the stream
/// tells the page with a `total` event before the rows it counts, again only when it changes, and again after a
/// reload's `reset`. A table that reports nothing sends no `total` (old pages see nothing new).
@Suite struct ReportedTotalStreamTests {
    /// 25 people in batches of 10; each batch reports `total(offset)` (nil: reports nothing).
    static func source(_ total: @escaping @Sendable (Int) -> Int?) -> BatchSource<Person, Int> {
        let everyone = people(25)
        return BatchSource<Person, Int>(initialToken: 0, loadFor: { offset, request in
            if let total = total(offset) { request.reportTotal(total) }
            let end = min(offset + 10, everyone.count)
            let batch = Array(everyone[offset..<end])
            return end >= everyone.count ? .completed(batch) : .items(batch, next: end)
        })
    }

    @Test("the total event precedes the rows it counts, is sent again only when it changes, and after a reset")
    func totalEventsBeforeRows() async throws {
        let server = try testServer([peopleTable(Self.source { $0 == 20 ? 2600 : 2500 })])
        defer { server.shutdown() }
        let stream = try await server.client.stream("/tables/people/stream")
        defer { stream.close() }
        let session = try object(try await stream.next(named: "session").event.data)
        let next = try #require(session["next"] as? String), reload = try #require(session["reload"] as? String)
        var seen: [String] = []
        func upTo(_ name: String) async throws {
            while true {
                let event = try #require(try await stream.nextEvent())
                let type = event.event
                if type == "total" { seen.append("total " + String(describing: try object(event.data)["total"] ?? "")) }
                else if type != "loading" { seen.append(type) }
                if type == name { return }
            }
        }
        try await upTo("rows")
        #expect(await server.client.post(next).status == .accepted)
        try await upTo("rows")
        #expect(seen == ["total 2500", "rows", "rows"], "the same total is not sent again")
        #expect(await server.client.post(reload).status == .accepted)
        try await upTo("rows")
        #expect(seen.suffix(3) == ["reset", "total 2500", "rows"], "a reset's list is counted again")
        #expect(await server.client.post(next).status == .accepted)
        try await upTo("rows")
        #expect(await server.client.post(next).status == .accepted)
        try await upTo("complete")
        #expect(seen.suffix(4) == ["rows", "total 2600", "rows", "complete"], "a changed total is sent before its rows")
    }

    @Test func aTableThatReportsNothingSendsNoTotal() async throws {
        let server = try testServer([peopleTable(Self.source { _ in nil })])
        defer { server.shutdown() }
        let stream = try await server.client.stream("/tables/people/stream")
        defer { stream.close() }
        _ = try await stream.next(named: "session")
        let rows = try await stream.next(named: "rows")
        #expect(!rows.skipped.contains { $0.event == "total" })
        #expect(!rows.event.data.contains("total"))
    }

    @Test("on a page's one stream each table's total is its own: two tables of the same size are each told it")
    func aPagesTablesCountApart() async throws {
        let server = try RowstreamTestServer(
            [peopleTable(Self.source { _ in 2500 }, name: "a"), peopleTable(Self.source { _ in 2500 }, name: "b")],
            pages: [DashboardPage(name: "both", title: "Both", tables: ["a", "b"])])
        defer { server.shutdown() }
        let stream = try await server.client.stream("/pages/both/stream")
        defer { stream.close() }
        var rows = Set<String>(), totals = Set<String>()
        for _ in 0..<50 where rows.count < 2 {
            let event = try #require(try await stream.nextEvent())
            if event.event.hasSuffix(":rows") { rows.insert(event.event) }
            if event.event.hasSuffix(":total") { totals.insert(event.event + " " + event.data) }
        }
        #expect(rows == ["a:rows", "b:rows"])
        #expect(totals == [#"a:total {"total":2500}"#, #"b:total {"total":2500}"#])
    }
}

/// The total on a dialect's stream (docs/DIALECTS.md): in the dialect's own form, before the rows it counts, and
/// again after a reset (the list is counted again).
@Suite struct DialectTotalTests {
    @Test(arguments: [
        ("htmx", "total", #"<span hx-swap-oob="true" id="rs-people-total">2500</span>"#),
        ("turbo", "message", #"<turbo-stream action="update" target="rs-people-total"><template>2500</template></turbo-stream>"#),
        ("datastar", "datastar-patch-signals", #"signals {"rs_people_total":2500}"#),
    ])
    func theTotalInTheDialectsForm(dialect: String, type: String, data: String) async throws {
        let server = try testServer([peopleTable(ReportedTotalStreamTests.source { _ in 2500 })])
        defer { server.shutdown() }
        let stream = try await server.client.stream("/tables/people/stream?dialect=\(dialect)")
        defer { stream.close() }
        var received: [String] = []
        func upToRows() async throws {
            for _ in 0..<20 {
                let event = try #require(try await stream.nextEvent())
                if event.event == "loading" || event.event == "heartbeat" { continue }
                received.append(event.event + " " + event.data)
                if event.event == DialectTests.type(dialect, "rows"), event.data.contains("data-index") { return }
            }
        }
        try await upToRows()
        let totals = received.filter { $0.contains("2500") }
        #expect(totals == ["\(type) \(data)"], "one total, in the dialect's form: \(received)")
        #expect(received.firstIndex(of: "\(type) \(data)") == received.count - 2, "just before the rows it counts")
        // The rows' sentinel names the session (Datastar's comes as the next event): its reload starts the list over.
        let sentinel = dialect == "datastar" ? try #require(try await stream.nextEvent()).data : received.last ?? ""
        let next = try DialectTests.nextURL(sentinel, table: "people")
        #expect(await server.client.post(next.replacingOccurrences(of: "/next", with: "/reload")).status == .accepted)
        received = []
        try await upToRows()
        #expect(received.filter { $0.contains("2500") } == ["\(type) \(data)"], "counted again after the reset: \(received)")
    }
}
