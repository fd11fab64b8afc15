import Foundation
import Tables

/// One table's way from a sealed position to rows, composed once where the table is made: open the position into
/// the source's token (``TokenCodec``), load the batch with the use's loader (``BatchSource``), make each item's
/// ``Row`` (`makeRow`: a row template through ``RowCells``, or a config table's ``RowMaker``) and seal the next
/// position. The state machine calls the loader it makes: one signature, `TablePosition` in, rows out.
///
/// Thread-safe: an immutable value; what it holds is `Sendable`.
struct RowPipeline<Item: Sendable, Token: Codable & Sendable & Equatable>: Sendable {
    let table: String
    let codec: TokenCodec<Token>
    let source: BatchSource<Item, Token>
    let makeRow: @Sendable (Item) -> Row

    /// A loader for `use`: a new source loader (its own walk), run by ``load(_:with:)``.
    func loader(for use: LoaderUse) -> TableBinding.RowLoader {
        let load = source.makeLoader(use)
        return { position in try await self.load(position, with: load) }
    }

    /// Loads `position` with `load`. Errors: a ``LoadFailure`` and cancellation pass through; any other error
    /// becomes a retryable "Loading rows failed" failure, logged.
    func load(_ position: TablePosition, with load: BatchSource<Item, Token>.Loader) async throws
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
