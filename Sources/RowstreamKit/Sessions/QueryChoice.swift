import Tables
import Synchronization

/// A viewer session's current sort and filter choice (the upstream query parameters its controls chose) and the
/// loader for it. A page's table starts over with another choice on `reload` (docs/PROTOCOL.md, "Pages"), so the
/// session's data source loads through this box, which the reload swaps before it starts over.
///
/// Thread-safe: one `Mutex`.
final class QueryChoice: Sendable {
    typealias Query = LoaderUse.Query

    private struct Current: Sendable {
        var query: Query
        var loader: TableBinding.RowLoader
    }

    private let table: TableBinding
    private let current: Mutex<Current>

    init(table: TableBinding, query: Query) {
        self.table = table
        current = Mutex(Current(query: query, loader: table.makeLoader(.viewer(query: query))))
    }

    var query: Query { current.withLock { $0.query } }

    /// Loads `position` with the loader of the current choice.
    func load(_ position: TablePosition) async throws -> LoadResult<Row, TablePosition> {
        let loader = current.withLock { $0.loader }
        return try await loader(position)
    }

    /// Switches to `query` (and a loader for it); loads in flight keep the loader they started with.
    func choose(_ query: Query) {
        let loader = table.makeLoader(.viewer(query: query))
        current.withLock { $0 = Current(query: query, loader: loader) }
    }
}
