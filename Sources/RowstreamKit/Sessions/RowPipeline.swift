import Foundation
import Sealing
import Tables

/// One table's way from a sealed position to rows, composed once where the table is made: open the position into
/// the source's token (``TokenCodec``), load the batch with the use's loader (``BatchSource``), have the items'
/// ``Row``s (`makeRows`: a code table's row template through ``RowCells``, item by item; a config table loads rows
/// already, read from the upstream's body by its ``RowMaker``, and passes them on as they are) and seal the next
/// position. The state machine calls the loader it makes: one signature, `TablePosition` in, rows out.
///
/// One per table (and sealing keys), shared by every viewer's loader: a viewer's loader holds a pointer to it and
/// its own walk, and a codec of its own only where its positions are sealed for it (a viewer-scoped table). Viewers
/// who load the very same items at the same place (the first page from the cache, in a storm of arrivals) share
/// one making of their rows and one sealing of the next position (``RecentBatches``); a viewer-scoped table's
/// viewers share none.
///
/// Thread-safe: immutable; what it holds is `Sendable`.
final class RowPipeline<Item: Sendable, Token: Codable & Sendable & Equatable>: Sendable {
    let table: String
    let seal: SealingKeys
    let source: BatchSource<Item, Token>
    let makeRows: @Sendable ([Item]) -> [Row]
    /// The codec of the table's own resume scope, shared by the loaders of every viewer whose positions are not
    /// sealed for them alone.
    private let tableCodec: TokenCodec<Token>
    /// The batches made last in the table's own scope, shared by viewers loading the same items at the same place.
    let recent = RecentBatches<Item, Token>()

    init(table: String, seal: SealingKeys, resumeScope: String, source: BatchSource<Item, Token>,
         makeRows: @escaping @Sendable ([Item]) -> [Row]) {
        self.table = table
        self.seal = seal
        self.source = source
        self.makeRows = makeRows
        tableCodec = TokenCodec(seal: seal, scope: resumeScope)
    }

    /// A loader for `use` whose positions are sealed in `scope`: a new source loader (its own walk), run by
    /// ``load(_:codec:with:)``.
    func loader(for use: LoaderUse, scope: String) -> TableBinding.RowLoader {
        let load = source.makeLoader(use)
        if scope == tableCodec.scope {
            return { position in try await self.load(position, codec: self.tableCodec, sharing: self.recent, with: load) }
        }
        let codec = TokenCodec<Token>(seal: seal, scope: scope)
        return { position in try await self.load(position, codec: codec, sharing: nil, with: load) }
    }

    /// Loads `position` (opened and the next sealed with `codec`) with `load`; rows and next position shared through
    /// `recent` (nil: none, a viewer's own scope). Errors: a ``LoadFailure`` and cancellation pass through; any other
    /// error becomes a retryable "Loading rows failed" failure, logged.
    func load(_ position: TablePosition, codec: TokenCodec<Token>, sharing recent: RecentBatches<Item, Token>?,
              with load: BatchSource<Item, Token>.Loader) async throws -> LoadResult<Row, TablePosition>
    {
        let token = try codec.token(at: position, initial: source.initialToken)
        let result: LoadResult<Item, Token>
        do {
            result = try await load(token)
        } catch let error as LoadFailure {
            throw error
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            let message = "Loading rows failed: \(error)"
            if !Task.isCancelled { TableBinding.log("table \(table): \(message)") }
            throw LoadFailure(message: message, isRetryable: true)
        }
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
