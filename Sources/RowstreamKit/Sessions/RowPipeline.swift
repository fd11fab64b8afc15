import Foundation
import Sealing
import Tables

/// One table's way from a sealed position to rows, composed once where the table is made: open the position into
/// the source's token (``TokenCodec``), load the batch with the use's loader (``BatchSource``), make each item's
/// ``Row`` (`makeRow`: a row template through ``RowCells``, or a config table's ``RowMaker``) and seal the next
/// position. The state machine calls the loader it makes: one signature, `TablePosition` in, rows out.
///
/// One per table (and sealing keys), shared by every viewer's loader: a viewer's loader holds a pointer to it and
/// its own walk, and a codec of its own only where its positions are sealed for it (a viewer-scoped table). (A
/// pipeline copied into every loader cost each idle stream about 200 bytes: BENCHMARKS.md.)
///
/// Thread-safe: immutable; what it holds is `Sendable`.
final class RowPipeline<Item: Sendable, Token: Codable & Sendable & Equatable>: Sendable {
    let table: String
    let seal: SealingKeys
    let source: BatchSource<Item, Token>
    let makeRow: @Sendable (Item) -> Row
    /// The codec of the table's own resume scope, shared by the loaders of every viewer whose positions are not
    /// sealed for them alone.
    private let tableCodec: TokenCodec<Token>

    init(table: String, seal: SealingKeys, resumeScope: String, source: BatchSource<Item, Token>,
         makeRow: @escaping @Sendable (Item) -> Row) {
        self.table = table
        self.seal = seal
        self.source = source
        self.makeRow = makeRow
        tableCodec = TokenCodec(seal: seal, scope: resumeScope)
    }

    /// A loader for `use` whose positions are sealed in `scope`: a new source loader (its own walk), run by
    /// ``load(_:codec:with:)``.
    func loader(for use: LoaderUse, scope: String) -> TableBinding.RowLoader {
        let load = source.makeLoader(use)
        if scope == tableCodec.scope {
            return { position in try await self.load(position, codec: self.tableCodec, with: load) }
        }
        let codec = TokenCodec<Token>(seal: seal, scope: scope)
        return { position in try await self.load(position, codec: codec, with: load) }
    }

    /// Loads `position` (opened and the next sealed with `codec`) with `load`. Errors: a ``LoadFailure`` and cancellation pass through; any other error
    /// becomes a retryable "Loading rows failed" failure, logged.
    func load(_ position: TablePosition, codec: TokenCodec<Token>, with load: BatchSource<Item, Token>.Loader)
        async throws
        -> LoadResult<Row, TablePosition>
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
            let position: TablePosition
            do {
                position = try codec.position(of: next)
            } catch let failure as LoadFailure {
                throw failure
            } catch {
                throw LoadFailure(message: "The next token cannot be encoded: \(error)", isRetryable: false)
            }
            return .items(items.map(makeRow), next: position)
        case .completed(let items):
            return .completed(items.map(makeRow))
        }
    }
}
