import Foundation
import Locking
import Metrics
import Sealing
import Tables

/// One table's way from a sealed position to rows, made once where the table is made, holding the table's
/// ``RowSource``: open the position into the source's token (``TokenCodec``), load the batch of the use's walk
/// (``RowSource/batch(at:in:)``), have the items' ``Row``s (`makeRows`: a code table's row template through
/// ``RowCells``, item by item; a config table loads rows already, read from the upstream's body by its
/// ``RowMaker``, and passes them on as they are) and seal the next position. The state machine calls the loader it
/// makes: one signature, `TablePosition` in, rows out, timed into the table's upstream histogram.
///
/// One per table (and sealing keys), shared by every viewer's loader: a viewer's loader holds a pointer to it and
/// its own walk, and a codec of its own only where its positions are sealed for it (a viewer-scoped table). Viewers
/// who load the very same items at the same place (the first page from the cache, in a storm of arrivals) share
/// one making of their rows and one sealing of the next position (``RecentBatches``); a viewer-scoped table's
/// viewers share none.
///
/// Thread-safe: immutable; what it holds is `Sendable`.
final class RowPipeline<Source: RowSource>: RowLoading {
    typealias Item = Source.Item
    typealias Token = Source.Token

    let table: String
    let seal: SealingKeys
    let source: Source
    let makeRows: @Sendable ([Item]) -> [Row]
    /// The codec of the table's own resume scope, shared by the loaders of every viewer whose positions are not
    /// sealed for them alone.
    private let tableCodec: TokenCodec<Token>
    /// The batches made last in the table's own scope, shared by viewers loading the same items at the same place.
    let recent = RecentBatches<Item, Token>()
    /// The rows batch made last from an in-memory batch in the table's own scope, by what it was made from
    /// (``InMemoryBatch/madeFrom``): the next viewer's in-memory batch from the same page is this batch, looked up with
    /// no generic code (a storm of arrivals; the pipeline is generic over its source and not specialized).
    private let lastInMemory = Lock<LastInMemoryBatch?>(nil)

    init(table: String, seal: SealingKeys, source: Source, makeRows: @escaping @Sendable ([Item]) -> [Row]) {
        self.table = table
        self.seal = seal
        self.source = source
        self.makeRows = makeRows
        tableCodec = TokenCodec(seal: seal, scope: TableBinding.resumeScope(table))
    }

    var startsOnCaller: Bool { source.startsOnCaller }
    var readsViewerHeaders: Bool { source.readsViewerHeaders }

    func sealing(with keys: SealingKeys) -> any RowLoading {
        RowPipeline(table: table, seal: keys, source: source, makeRows: makeRows)
    }

    /// The loaders for `request` (one walk of its own) whose positions are sealed in `scope`, each load observed in
    /// `timing` (nil: untimed): `load`, and `inMemory` when the source starts on the caller (the first batch from
    /// memory: ``RowSource/batchInMemory(at:in:)``, its rows made or shared as `load` does).
    func loaders(for request: RowRequest, scope: String, timing: Histogram?) -> TableBinding.RowLoaders {
        let walk = source.walk(for: request)
        let shared = scope == tableCodec.scope
        let codec = shared ? tableCodec : TokenCodec<Token>(seal: seal, scope: scope)
        let recent = shared ? recent : nil
        let load: TableBinding.RowLoader = { position in
            let start = ContinuousClock.now
            defer { timing?.observe(since: start) }
            return try await self.load(position, in: walk, codec: codec, sharing: recent, logger: request.logger)
        }
        guard source.startsOnCaller else { return TableBinding.RowLoaders(load: load, inMemory: nil) }
        return TableBinding.RowLoaders(load: load, inMemory: { position in
            let start = ContinuousClock.now
            // No `try?`: an optional of a generic token is a type looked up at run time, every arrival.
            let token: Token
            do { token = try codec.token(at: position, initial: self.source.initialToken) } catch { return nil }
            guard let answer = self.source.batchInMemory(at: token, in: walk) else { return nil }
            defer { timing?.observe(since: start) }
            // The table's own scope: the batch made from the same page last time, if it was.
            let madeFrom = recent == nil ? nil : answer.madeFrom
            if let madeFrom, let last = self.lastInMemory.withLock({ $0 }), last.madeFrom === madeFrom {
                if case .items(_, .open(let open)) = last.batch { open.markShared() }
                return last.batch
            }
            // Rows that cannot be made or sealed here fail as `load` fails them: it loads the batch again.
            guard let batch = try? self.rows(of: answer.batch, codec: codec, sharing: recent) else { return nil }
            if let madeFrom { self.lastInMemory.withLock { $0 = LastInMemoryBatch(madeFrom: madeFrom, batch: batch) } }
            return batch
        })
    }

    /// Loads `position` (opened and the next sealed with `codec`) in `walk`; rows and next position shared through
    /// `recent` (nil: none, a viewer's own scope). Errors: a ``LoadFailure`` and cancellation pass through; any other
    /// error becomes a retryable "Loading rows failed" failure, logged to `logger`.
    func load(_ position: TablePosition, in walk: Source.Walk, codec: TokenCodec<Token>,
              sharing recent: RecentBatches<Item, Token>?, logger: any RowstreamLogger) async throws
        -> LoadResult<Row, TablePosition>
    {
        let token = try codec.token(at: position, initial: source.initialToken)
        let result: LoadResult<Item, Token>
        do {
            result = try await source.batch(at: token, in: walk)
        } catch let error as LoadFailure {
            throw error
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            let message = "Loading rows failed: \(error)"
            if !Task.isCancelled { logger.log(.error, "table \(table): \(message)") }
            throw LoadFailure(message: message, isRetryable: true)
        }
        return try rows(of: result, codec: codec, sharing: recent)
    }

    /// The rows batch of the source's `result`, its next position sealed with `codec` (both shared through `recent`).
    private func rows(of result: LoadResult<Item, Token>, codec: TokenCodec<Token>,
                      sharing recent: RecentBatches<Item, Token>?) throws -> LoadResult<Row, TablePosition> {
        switch result {
        case .items(let items, let next):
            let made = try rows(of: items, next: next, codec: codec, sharing: recent)
            guard let position = made.position else { preconditionFailure("a next token has a sealed position") }
            return .items(made.rows, next: position)
        case .completed(let items):
            return .completed(try rows(of: items, next: nil, codec: codec, sharing: recent).rows)
        }
    }

    /// The rows of `items` and the sealed position of `next` (nil: the last batch): an entry's of `recent` if it
    /// holds these very items (the position too if its next token is `next`), else made here and kept there.
    private func rows(of items: [Item], next: Token?, codec: TokenCodec<Token>, sharing recent: RecentBatches<Item, Token>?)
        throws -> (rows: [Row], position: TablePosition?)
    {
        let shared = recent?.entry(for: items)
        let rows = shared?.rows ?? makeRows(items)
        if let shared, shared.next == next {
            // Held by another viewer already: its sealed text is kept from now on, one for all (an id shared too).
            if case .open(let open)? = shared.position { open.markShared() }
            return (rows, shared.position)
        }
        var position: TablePosition? = nil
        if let next {
            do {
                position = try codec.position(of: next)
            } catch let failure as LoadFailure {
                throw failure
            } catch {
                throw LoadFailure(message: "The next token cannot be encoded: \(error)", isRetryable: false)
            }
        }
        if shared == nil { recent?.remember(items: items, rows: rows, next: next, position: position) }
        return (rows, position)
    }
}

/// A ``RowPipeline``'s last rows batch from an in-memory page and what it was made from. Not nested in the pipeline:
/// a type nested in a generic class is generic too, and looking it up is the generic metadata this memo avoids.
struct LastInMemoryBatch: Sendable {
    let madeFrom: any AnyObject & Sendable
    let batch: LoadResult<Row, TablePosition>
}

/// A table's ``RowPipeline`` without its source's type: what a ``TableBinding`` holds.
protocol RowLoading: Sendable {
    /// Whether a viewer's first batch starts on the event loop opening its stream (``RowSource/startsOnCaller``).
    var startsOnCaller: Bool { get }
    /// Whether its source's walks read the viewer's request headers (``RowSource/readsViewerHeaders``).
    var readsViewerHeaders: Bool { get }
    /// The same pipeline sealing with `keys` (the server that mounts the table sets them).
    func sealing(with keys: SealingKeys) -> any RowLoading
    /// The loaders for `request` (one walk), positions sealed in `scope`, timed into `timing`.
    func loaders(for request: RowRequest, scope: String, timing: Histogram?) -> TableBinding.RowLoaders
}
