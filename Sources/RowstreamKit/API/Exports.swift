// What a library user names besides RowstreamKit's own types (docs/LIBRARY.md), in one place. Access is re-exported
// whole: its public API is exactly the access configuration a user writes (`ServerConfiguration.access`, docs/
// SECURITY.md); what only the server uses is `package`. Of Sealing, Batches and Tables only the names below are:
// those modules' other public types (cursor sealing, the batches state machine, the renderer) are shared with Upstream
// and Dashboard, not meant for users, and Tables' three types go by the library's names (`TableColumn`, `CellFormat`,
// `SkeletonStyle`).
@_exported import Access
import Batches
import Sealing
import Tables

/// How a table's skeleton bones move while its rows load (`TableBinding(..., skeleton: SkeletonStyle(animation:
/// .pulse, speed: 0.8))`; docs/CONFIG.md "Skeletons"): a shimmer, a pulse or none, its seconds and direction.
public typealias SkeletonStyle = Tables.SkeletonStyle

/// The keys that seal and open resume tokens and the JSON proxy's cursors: ``ServerConfiguration/sealingKeys``
/// (docs/SCALING.md, "Keys: tokens valid on every instance").
public typealias SealingKeys = Sealing.SealingKeys

/// Reads a sealing key file (one base64 key per line, the first seals): `try SealingKeyFile.load(path:)`; its error
/// names the file and line, never a key.
public typealias SealingKeyFile = Sealing.SealingKeyFile

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

/// One column of a code-defined table: its header, its cell format and an optional CSS width. Columns are known
/// before any item is, so the page's header and skeleton rows are drawn from them at once. The same type as a
/// config table's columns (`Tables.Column`), under the library's name.
///
/// ```swift
/// let columns = [TableColumn("Name"), TableColumn("Joined", format: .date, width: "10rem")]
/// ```
///
/// Thread-safe: a value type, `Sendable`.
public typealias TableColumn = Tables.Column

/// How a column's cells render, and the CSS class they get (`rs-FORMAT`): `.text`, `.number` (grouped,
/// right-aligned), `.date` (UTC `YYYY-MM-DD HH:MM` in a `<time>`), `.link` (http(s) only, else text), `.badge`.
/// Thread-safe: an immutable value.
public typealias CellFormat = Tables.ColumnFormat
