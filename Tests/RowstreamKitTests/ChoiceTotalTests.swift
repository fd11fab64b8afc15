import Access
import HTTPServer
import Metrics
import TestSupport
import Testing
@testable import RowstreamKit

/// A new sort or filter choice's list is counted again (issue 28's `total` event after a `reset`): the total its walk
/// reports is told, even when it is reported as the walk starts, before the `reset` goes out.
@Suite struct ChoiceTotalTests {
    /// Knows the list's size when a walk starts (50 as configured, 40 sorted) and reports it there; never completes.
    struct CountedSource: RowSource {
        var initialToken: Int { 0 }
        func walk(for request: RowRequest) {
            request.reportTotal(request.query.isEmpty ? 50 : 40)
        }
        func batch(at token: Int, in walk: Void) async throws -> LoadResult<String, Int> {
            .items(["a\(token)"], next: token + 1)
        }
    }

    @Test("a new choice's total, reported as its walk starts, is told after its reset, before its rows")
    func aNewChoicesTotalIsTold() async throws {
        let table = TableBinding(name: "t", title: "T", columns: [TableColumn("Value")], rows: CountedSource()) { value, row in
            row.key = value
            row.text(value)
        }
        let written = SessionRequestTests.Written()
        let writer = StreamWriter { written.append($0) }
        defer { writer.close() }
        let registry = SessionRegistry()
        ViewerSession.open(table: table, channel: writer, resume: nil, resetFirst: false, registry: registry,
                           metrics: ServerMetrics(registry: MetricsRegistry(), tables: ["t"]),
                           batchTimeout: .seconds(30), feed: nil, query: [], onChoice: { _ in },
                           request: RowRequest(use: .plain, viewer: Viewer(name: "ann"), logger: StandardErrorLogger()))
        #expect(await eventually { written.value.contains("event: rows\n") })
        let named = try #require(written.value.firstMatch(of: /"session":"([0-9a-f]{32})"/))
        let id = try #require(SessionID(String(named.output.1)))
        guard case .open(let session) = registry.lookup(id, table: "t") else {
            Issue.record("the session is not open")
            return
        }
        try session.reload(choosing: [(name: "sort", value: "name")])
        // The new choice's first rows came: everything after the reset is in one read.
        #expect(await eventually { (written.value.split(separator: "event: reset\n").last ?? "").contains("event: rows\n") })
        let events = written.value.split(separator: "\n\n").compactMap { $0.firstMatch(of: /event: (\w+)/)?.output.1 }
        let told = written.value.matches(of: /"total":(\d+)/).map { String($0.output.1) }
        #expect(events.filter { $0 != "loading" && $0 != "session" } == ["total", "rows", "reset", "total", "rows"])
        #expect(told == ["50", "40"])
    }
}
