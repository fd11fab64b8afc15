import Batches
import Tables

/// What a loader returns for one token: `.items(items, next: token)` when more may follow, `.completed(items)`
/// for the last batch (it may be empty). The `BatchesDataSource` result of the originals.
///
/// ```swift
/// let source = BatchSource<Order, String?>(initialToken: nil) { cursor in
///     let page = try await api.orders(after: cursor)
///     return page.next.map { .items(page.orders, next: $0) } ?? .completed(page.orders)
/// }
/// ```
///
/// Thread-safe: an immutable value, `Sendable` when its items are.
public typealias LoadResult<Item: Sendable, Token: Sendable> = Batches.LoadResult<Item, Token>

/// Throw this from a loader to choose what the viewer reads in the error row and whether it offers Retry:
/// `throw LoadFailure(message: "The orders service is down.", isRetryable: true)`. Any other error becomes a
/// retryable failure (see ``TableBinding``). Thread-safe: an immutable value.
public typealias LoadFailure = Batches.LoadFailure

/// How a column's cells render, and the CSS class they get (`rs-FORMAT`): `.text`, `.number` (grouped,
/// right-aligned), `.date` (UTC `YYYY-MM-DD HH:MM` in a `<time>`), `.link` (http(s) only, else text), `.badge`.
/// Thread-safe: an immutable value.
public typealias CellFormat = Tables.ColumnFormat
