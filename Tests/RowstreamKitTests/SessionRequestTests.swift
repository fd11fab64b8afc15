import Access
import HTTPServer
import Locking
import Metrics
import Testing
@testable import RowstreamKit

/// What a viewer session keeps of the request that opened it (``RowRequest/forSession(keepingHeaders:)``): the viewer
/// and a total of its own always, the viewer's request headers (cookies and all) only where the table's source reads
/// them (``RowSource/readsViewerHeaders``); a new choice's walk is for the same viewer. The headers are the larger
/// part of an idle stream's request (BENCHMARKS.md, idle), and fewer copies of a viewer's cookies stay in memory.
@Suite("A viewer session keeps its viewer, and their headers only where the source reads them")
struct SessionRequestTests {
    /// What each walk was started for: the viewer's name, their `Cookie` and the choice's query.
    final class Walks: Sendable {
        private let seen = Lock<[(name: String, cookie: String?, query: String)]>([])
        func record(_ request: RowRequest) {
            let query = request.query.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
            seen.withLock { $0.append((request.viewer.name, request.viewer.headers["Cookie"], query)) }
        }
        var all: [(name: String, cookie: String?, query: String)] { seen.withLock { $0 } }
    }

    /// A source that records each walk's request; its list never completes, so the session stays open (a completed
    /// list would end the stream, and the session with it, whenever its load finished).
    struct RecordingSource: RowSource {
        let walks: Walks
        let readsViewerHeaders: Bool
        var initialToken: Int { 0 }
        func walk(for request: RowRequest) {
            walks.record(request)
        }
        func batch(at token: Int, in walk: Void) async throws -> LoadResult<String, Int> {
            .items(["a\(token)"], next: token + 1)
        }
    }

    /// What the stream's writer was given, as text. Thread-safe.
    final class Written: Sendable {
        private let text = Lock("")
        func append(_ output: StreamWriter.Output) {
            if case .bytes(let bytes) = output { text.withLock { $0 += String(decoding: bytes, as: UTF8.self) } }
        }
        var value: String { text.withLock { $0 } }
    }

    /// Opens a page-stream session of a table over a `RecordingSource` for a viewer whose request sent a cookie, then
    /// has it take a new choice; returns the walks the source saw.
    static func walks(readsViewerHeaders: Bool, partitioned: Bool = false) throws
        -> [(name: String, cookie: String?, query: String)]
    {
        let walks = Walks()
        let source = RecordingSource(walks: walks, readsViewerHeaders: readsViewerHeaders)
        var table = TableBinding(name: "t", title: "T", columns: [TableColumn("Value")], rows: source) { value, row in
            row.key = value
            row.text(value)
        }
        if partitioned { table.partition = { viewer in .identity(viewer.headers["Cookie"] ?? "") } }
        let written = Written()
        let writer = StreamWriter { written.append($0) }
        defer { writer.close() }
        let viewer = Viewer(name: "ann").sending(["Cookie": "session=secret"])
        let registry = SessionRegistry()
        ViewerSession.open(table: table, channel: writer, resume: nil, resetFirst: false, registry: registry,
                           metrics: ServerMetrics(registry: MetricsRegistry(), tables: ["t"]),
                           batchTimeout: .seconds(30), feed: nil, query: [], onChoice: { _ in },
                           request: RowRequest(use: .plain, viewer: viewer, logger: StandardErrorLogger()))
        let text = written.value
        let named = try #require(text.firstMatch(of: /"session":"([0-9a-f]{32})"/), "a session event: \(text)")
        let id = try #require(SessionID(String(named.output.1)))
        guard case .open(let session) = registry.lookup(id, table: "t") else {
            Issue.record("the session is not open")
            return walks.all
        }
        try session.reload(choosing: [(name: "sort", value: "name")])
        return walks.all
    }

    @Test("a source that reads no headers: each walk, the new choice's too, is for the viewer without their headers")
    func withoutHeaders() throws {
        let walks = try Self.walks(readsViewerHeaders: false)
        #expect(walks.map(\.name) == ["ann", "ann"])
        #expect(walks.map(\.cookie) == [nil, nil])
        #expect(walks.map(\.query) == ["", "sort=name"])
    }

    @Test("a source that reads them (a forwarding table, a code table): each walk has the viewer's headers")
    func withHeaders() throws {
        let walks = try Self.walks(readsViewerHeaders: true)
        #expect(walks.map(\.name) == ["ann", "ann"])
        #expect(walks.map(\.cookie) == ["session=secret", "session=secret"])
        #expect(walks.map(\.query) == ["", "sort=name"])
    }

    @Test("a partitioned table (its identity from the headers) keeps them whatever its source reads")
    func partitionedTablesKeepHeaders() throws {
        let walks = try Self.walks(readsViewerHeaders: false, partitioned: true)
        #expect(walks.map(\.cookie) == ["session=secret", "session=secret"])
    }

    @Test("a code table's source reads them; a session's total is its own, not the opening request's")
    func codeTablesKeepHeadersAndTotalsArePerSession() {
        #expect(BatchSource<String, Int>.array(["a"], batchSize: 1).readsViewerHeaders)
        let opening = RowRequest(use: .plain, viewer: Viewer(name: "ann"), logger: StandardErrorLogger())
        let session = opening.forSession(keepingHeaders: false)
        session.reportTotal(7)
        #expect(session.total.latest == 7 && session.using(.fresh).total.latest == 7)
        #expect(opening.total.latest == nil)
        #expect(session.total.takeChange() == 7 && session.total.takeChange() == nil)
        session.total.clear()
        #expect(session.total.latest == nil)
    }
}
