import Foundation
import Tables

/// One table's way from a loader's items to filled rows: opens the sealed position into the source's token,
/// runs the viewer's loader, fills each item's row with the template and seals the next position.
///
/// Made once per table; every viewer's loader shares it (a viewer's loader is then its own `load` and a pointer).
/// Thread-safe: immutable; the template is `@Sendable`.
final class RowFilling<Item: Sendable, Token: Codable & Sendable & Equatable>: Sendable {
    private let codec: TokenCodec<Token>
    private let initialToken: Token
    private let table: String
    private let makeRow: @Sendable (Item) -> Row

    init(codec: TokenCodec<Token>, initialToken: Token, table: String, makeRow: @escaping @Sendable (Item) -> Row) {
        self.codec = codec
        self.initialToken = initialToken
        self.table = table
        self.makeRow = makeRow
    }

    /// Loads `position` with `load`. Errors: a ``LoadFailure`` and cancellation pass through; any other error
    /// becomes a retryable "Loading rows failed" failure, written to standard error.
    func load(_ position: PageCursor, with load: BatchSource<Item, Token>.Loader) async throws
        -> LoadResult<Row, PageCursor>
    {
        let token = try codec.token(at: position, initial: initialToken)
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
        return try codec.rows(result, makeRow: makeRow)
    }
}
