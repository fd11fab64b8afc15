import Synchronization

/// A viewer session's current sort and filter choice: the upstream query parameters its controls chose (empty: the
/// table as configured). Only the query: the session's data source holds the loader for it, and a reload with
/// another choice hands the data source a new loader (`BatchesDataSource.reload(with:)`), so no row passes here.
///
/// Thread-safe: one `Mutex`.
final class QueryChoice: Sendable {
    typealias Query = LoaderUse.Query

    private let current: Mutex<Query>

    init(query: Query) {
        current = Mutex(query)
    }

    var query: Query { current.withLock { $0 } }

    /// Switches to `query`.
    func choose(_ query: Query) {
        current.withLock { $0 = query }
    }
}
