import Batches
import Foundation
import JSON
import Tables
import Upstream

/// Where a viewer stands in an upstream's pages: before the first page, or at a cursor the upstream gave, sealed
/// by the table's `CursorSeal` (so a resume token or proxy cursor a client sends back cannot be forged).
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
    /// Seals cursors handed to clients (scope: the table's name).
    let seal: CursorSeal
    /// Empty pages with a cursor a viewer's walk skips in a row before failing.
    let maxEmptyPages: Int
    /// Values (API tokens from the environment) replaced by `[redacted]` in every message shown or logged.
    let secrets: [String]

    init(spec: TableSpec, source: PageSource, batchSize: Int, seal: CursorSeal = .random(), maxEmptyPages: Int = 5,
         secrets: [String] = []) {
        self.spec = spec
        self.renderer = TableRenderer(spec: spec)
        self.source = source
        self.batchSize = batchSize
        self.seal = seal
        self.maxEmptyPages = maxEmptyPages
        self.secrets = secrets
    }

    /// `message` with every secret replaced, should an upstream have echoed one back in its error text.
    func redacted(_ message: String) -> String {
        secrets.reduce(message) { text, secret in text.replacingOccurrences(of: secret, with: "[redacted]") }
    }

    /// The sealed form of an upstream cursor, safe to hand to a client.
    func sealed(_ cursor: String) -> String { seal.seal(cursor, scope: name) }

    /// The upstream cursor inside a client's sealed cursor; nil if forged, altered, of another table or from
    /// before a restart.
    func unsealed(_ cursor: String) -> String? { seal.open(cursor, scope: name) }

    /// A new viewer's walk: no item twice (by the key field), empty pages skipped, cursor loops stopped.
    func makeWalker() -> PageWalker { PageWalker(keyPath: spec.keyField, maxEmptyPages: maxEmptyPages) }

    var name: String { spec.name }
    var pagePath: String { "/tables/\(name)" }
    var streamPath: String { "/tables/\(name)/stream" }
    func sessionPath(_ session: String, _ action: String) -> String { "/tables/\(name)/sessions/\(session)/\(action)" }

    /// Loads one batch: one upstream page (more if pages come back empty), through `walker` when given (one per
    /// viewer). Upstream errors become a `LoadFailure` whose message is safe to show, and a log line.
    func loadBatch(_ cursor: PageCursor, walker: PageWalker? = nil) async throws -> LoadResult<JSONValue, PageCursor> {
        var upstreamCursor: String? = nil
        if case .cursor(let sealedCursor) = cursor {
            guard let opened = unsealed(sealedCursor) else {
                throw LoadFailure(message: "This position is no longer valid; reload the table.", isRetryable: false)
            }
            upstreamCursor = opened
        }
        let page: Page
        do throws(UpstreamError) {
            if let walker {
                page = try await walker.nextBatch(from: source, cursor: upstreamCursor)
            } else {
                page = try await source.fetchPage(cursor: upstreamCursor)
            }
        } catch {
            let message = redacted("\(error)")
            if error != .cancelled { Self.log("table \(name): \(message)") }
            throw LoadFailure(message: "Loading rows failed: \(message)", isRetryable: error.isRetryable)
        }
        if let next = page.nextCursor {
            return .items(page.items, next: .cursor(sealed(next)))
        }
        return .completed(page.items)
    }

    /// One line on standard error. Messages are `UpstreamError` descriptions: never a URL or a header.
    static func log(_ message: String) {
        FileHandle.standardError.write(Data("rowstream: \(message)\n".utf8))
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
