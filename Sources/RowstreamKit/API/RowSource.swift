/// The one seam between a table and where its rows come from: a code table's ``BatchSource`` and a config table's
/// upstream walk (Dashboard's `UpstreamRows`) both conform, and a table's ``RowPipeline`` holds its conformer.
///
/// A use (one viewer's walk, a refetch, a live refresh) starts a ``Walk`` with ``walk(for:)``, given the request it
/// serves (``RowRequest``: the use, the viewer, the logger), explicitly: nothing is read from task-locals, so a
/// load started in a detached task serves the same viewer. Each batch of that use is then
/// ``batch(at:in:)``: the items at a token and the token after them. A walk may keep state between its batches
/// (a config table's page walker remembers the keys it saw); a source keeps what all walks share (caches).
///
/// Thread-safe: conformers are `Sendable`; ``batch(at:in:)`` is called concurrently for different walks (never twice
/// at once for one walk), on Swift's cooperative pool or, for a source that ``startsOnCaller``, first on the event
/// loop that opens a viewer's stream.
public protocol RowSource<Item>: Sendable {
    /// What one batch holds before it becomes rows (a code table's items; a config table's rows, read already).
    associatedtype Item: Sendable
    /// Where a batch starts: JSON-encoded and sealed into resume tokens (``BatchSource``).
    associatedtype Token: Codable & Sendable & Equatable
    /// One use's state between its batches.
    associatedtype Walk: Sendable

    /// The token of the first batch.
    var initialToken: Token { get }
    /// Whether a viewer's first batch may start on the event loop opening its stream, up to its first suspension:
    /// only for sources whose batches never block and do little before they suspend (a page from memory is then
    /// delivered with no task hop: issue 17, arrivals).
    var startsOnCaller: Bool { get }
    /// Whether its walks read the request's viewer's headers (``Viewer/headers``: a forwarding table's credentials)
    /// at ``walk(for:)`` or in a batch. If not, a viewer session keeps its request without them while its stream is
    /// open (idle memory per stream). Default true: a code table's loader is given the request at every batch.
    var readsViewerHeaders: Bool { get }
    /// Starts one use's walk for `request`.
    func walk(for request: RowRequest) -> Walk
    /// The batch at `token` of `walk`: its items and the next token (`.completed`: the last batch). Throws a
    /// ``LoadFailure`` for what the viewer reads, `CancellationError` when the use ended, or any error (shown as
    /// "Loading rows failed").
    func batch(at token: Token, in walk: Walk) async throws -> LoadResult<Item, Token>
    /// The batch at `token` of `walk` when it can be had from memory now, with no suspension and no blocking (a page
    /// from a cache), else nil: ``batch(at:in:)`` then loads it as if this had not been asked. Asked first for a
    /// viewer's first batch on the event loop (``startsOnCaller``), whose answer is then delivered with no task at
    /// all. Default nil (always ``batch(at:in:)``).
    func batchInMemory(at token: Token, in walk: Walk) -> InMemoryBatch<Item, Token>?
}

extension RowSource {
    public var startsOnCaller: Bool { false }
    public func batchInMemory(at token: Token, in walk: Walk) -> InMemoryBatch<Item, Token>? { nil }
    public var readsViewerHeaders: Bool { true }
}

/// A batch a ``RowSource`` had in memory (``RowSource/batchInMemory(at:in:)``), and what it was made from: two answers
/// of one source with the same `madeFrom` object are the same batch (the same cached page, walked afresh), so the
/// table makes its rows and seals its position once for all of them (a storm of arrivals). nil: not known.
public struct InMemoryBatch<Item: Sendable, Token: Sendable>: Sendable {
    public let batch: LoadResult<Item, Token>
    public let madeFrom: (any AnyObject & Sendable)?

    public init(_ batch: LoadResult<Item, Token>, madeFrom: (any AnyObject & Sendable)? = nil) {
        self.batch = batch
        self.madeFrom = madeFrom
    }
}
