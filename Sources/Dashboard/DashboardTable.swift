import Batches
import JSON
import Tables
import Upstream

/// Where a viewer stands in an upstream's pages: before the first page, or at a cursor the upstream gave.
enum PageCursor: Sendable, Equatable {
    case first
    case cursor(String)

    var upstreamCursor: String? {
        switch self {
        case .first: nil
        case .cursor(let value): value
        }
    }
}

/// One table the dashboard serves: how its rows look (spec and renderer), where they come from (page source),
/// and how many rows a batch holds. Immutable and `Sendable`.
struct DashboardTable: Sendable {
    let spec: TableSpec
    let renderer: TableRenderer
    let source: PageSource
    let batchSize: Int

    init(spec: TableSpec, source: PageSource, batchSize: Int) {
        self.spec = spec
        self.renderer = TableRenderer(spec: spec)
        self.source = source
        self.batchSize = batchSize
    }

    var name: String { spec.name }
    var pagePath: String { "/tables/\(name)" }
    var streamPath: String { "/tables/\(name)/stream" }
    func sessionPath(_ session: String, _ action: String) -> String { "/tables/\(name)/sessions/\(session)/\(action)" }

    /// Loads one batch: one upstream page. Upstream errors become a `LoadFailure` whose message is safe to show.
    func loadBatch(_ cursor: PageCursor) async throws -> LoadResult<JSONValue, PageCursor> {
        let page: Page
        do throws(UpstreamError) {
            page = try await source.fetchPage(cursor: cursor.upstreamCursor)
        } catch {
            throw LoadFailure(message: "Loading rows failed: \(error)", isRetryable: error.isRetryable)
        }
        if let next = page.nextCursor {
            return .items(page.items, next: .cursor(next))
        }
        return .completed(page.items)
    }

    /// The table's entry in `GET /api/tables`.
    func listing() -> JSONValue {
        [
            "name": .string(name),
            "title": .string(spec.title),
            "columns": renderer.columnsJSON(),
            "batchSize": .int(Int64(batchSize)),
            "page": .string(pagePath),
            "stream": .string(streamPath),
            "pages": .string("/api/tables/\(name)/pages"),
        ]
    }
}
