import Locking

/// A viewer session's current sort and filter choice: the upstream query parameters its controls chose (empty: the
/// table as configured). Only the query: the session's data source holds the loader for it, and a reload with
/// another choice hands the data source a new loader (`BatchesDataSource.reload(with:)`), so no row passes here.
///
/// Thread-safe: two locks (`Lock`). `current` guards the query; `choosing` lets one choice at a time switch the query and
/// run its reload, so the query read here is always the one whose loader the data source got last.
final class QueryChoice: Sendable {
    typealias Query = LoaderUse.Query

    private let current: Lock<Query>
    private let choosing = Lock(())

    init(query: Query) {
        current = Lock(query)
    }

    var query: Query { current.withLock { $0 } }

    /// Switches to `query`, then runs `reload` with it, before any other choice switches; unless `admit` refuses it
    /// first (throws), when nothing changes. `reload` may deliver events that read ``query`` (another lock), but
    /// neither closure may choose again.
    func choose<Failure: Error>(_ query: Query, admit: (Query) throws(Failure) -> Void,
                                reload: (Query) -> Void) throws(Failure) {
        try choosing.withLock { (_) throws(Failure) in
            try admit(query)
            current.withLock { $0 = query }
            reload(query)
        }
    }
}
