import JSON
import RowstreamKit
import Tables
import Upstream

/// A config table's ``RowSource``: its rows walk the upstream's pages. It holds the table's page source, the caches
/// of its controls' choices and forwarding identities (``QueryCaches``) and what its walks share (one hash key, one
/// hashing of each cached page's keys); each use is a ``PageWalker`` of its own over the page source its request
/// chooses (no item twice, empty pages skipped), whose items are the rows already (the source's ``ItemReader`` is
/// the table's `RowMaker`, which read each item straight into its `Row`), and whose batches are handed on as the walk
/// returns them.
///
/// The request decides the source: a live refresh reads past the cache (and puts what it read into it), a viewer's
/// controls choose a query's cache; a forwarding table resolves the request's viewer (a refusal fails every batch of
/// that walk, closed) and reads that identity's own cache, its messages hiding the viewer's forwarded values too.
///
/// Thread-safe: immutable; the caches and walkers are thread-safe. A walk does little before it suspends (a page from
/// memory answers at once, a miss suspends on the fetch) and never blocks: a viewer's first batch may start on the
/// event loop (``startsOnCaller``).
struct UpstreamRows: RowSource {
    /// One use's walk: the walker, the source it reads and how its failures read and are logged; or the refusal of
    /// a viewer who forwards nothing valid.
    typealias Walk = Result<UpstreamWalk, LoadFailure>

    struct UpstreamWalk: Sendable {
        let walker: PageWalker<Row>
        let source: PageSource<Row>
        let redactor: SecretRedactor
        /// Who it is for: its logger, and where the pages' reported totals go (``RowRequest/total``).
        let request: RowRequest
    }

    let table: String
    /// Where an item's key is (nil: no deduplication).
    let keyField: JSONPath?
    let maxEmptyPages: Int
    /// One hash key for the table's walks: viewers reading the same page get equal positions, sealed once.
    let hashKey: WalkHashKey
    /// One hashing of each cached page's keys for all the table's walks.
    let pageHashes: PageKeyHashes
    let source: PageSource<Row>
    /// Live refreshes read the head past the cache (a cached head would hide the changes) and put what they read
    /// into it before their changes go out: a viewer who comes after a change gets the page it came from.
    let refreshing: PageSource<Row>
    /// Controls (sort, filter): the same requests with the chosen parameters, each choice with a cache of its own;
    /// a forwarding table's, each viewer's choice.
    let caches: QueryCaches<Row>
    let secrets: [String]
    let redactor: SecretRedactor
    /// What of the viewer its requests carry (nil: nothing), identities named with `keys`.
    let forward: ViewerForwarding?
    let keys: SealingKeys

    /// The batches' token is the walk's position: the next cursor and the dedup window, sealed into every resume
    /// token, so a reconnect (to any instance) drops the same repeats as the walk it continues.
    var initialToken: WalkPosition? { nil }
    var startsOnCaller: Bool { true }
    /// Only a forwarding table's walks read the viewer's headers (what it forwards, at ``walk(for:)``).
    var readsViewerHeaders: Bool { forward != nil }

    func walk(for request: RowRequest) -> Walk {
        let walker = PageWalker<Row>(keyPath: keyField, maxEmptyPages: maxEmptyPages, hashKey: hashKey,
                                     pageHashes: pageHashes)
        guard let forward else {
            let chosen = request.isRefresh ? refreshing : request.query.isEmpty ? source : caches.source(for: request.query)
            return .success(UpstreamWalk(walker: walker, source: chosen, redactor: redactor, request: request))
        }
        switch forward.resolve(request.viewer, keys: keys) {
        case .failure(let refusal):
            return .failure(LoadFailure(message: refusal.message, isRetryable: false))
        case .success(let viewer):
            // Each identity's own.
            let chosen = request.isRefresh
                ? caches.source(for: [], as: viewer).refreshing() : caches.source(for: request.query, as: viewer)
            return .success(UpstreamWalk(walker: walker, source: chosen,
                                         redactor: SecretRedactor(secrets: secrets + viewer.secrets),
                                         request: request))
        }
    }

    /// The first batch when the walk's source holds the first page in memory (``PageWalker/firstBatchInMemory(from:)``),
    /// made from that page (its identity), its reported total gone to the request; nil for any other position, a
    /// refused walk, or a page not in memory.
    func batchInMemory(at position: WalkPosition?, in walk: Walk) -> InMemoryBatch<Row, WalkPosition?>? {
        guard position == nil, case .success(let walk) = walk,
              let (batch, total, page) = walk.walker.firstBatchInMemory(from: walk.source) else { return nil }
        if let total { walk.request.reportTotal(total) }
        return InMemoryBatch(batch, madeFrom: page)
    }

    /// The walk's next batch from `position`: ``PageWalker/nextBatch(from:at:)``'s, handed on as it came (the walk
    /// returns its rows as the pipeline takes them); the page's reported total goes to the request.
    func batch(at position: WalkPosition?, in walk: Walk) async throws -> LoadResult<Row, WalkPosition?> {
        let walk = try walk.get()
        do throws(UpstreamError) {
            let (batch, total) = try await walk.walker.nextBatch(from: walk.source, at: position)
            if let total { walk.request.reportTotal(total) }
            return batch
        } catch {
            throw UpstreamTable.failure(error, table: table, redactor: walk.redactor, logger: walk.request.logger)
        }
    }
}
