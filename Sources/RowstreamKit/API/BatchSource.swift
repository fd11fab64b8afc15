import Access
import Batches

/// A batches data source: an async loader that turns a token (a cursor, a page number, anything `Codable`) into
/// one batch of items and the token of the next. The `BatchesDataSource(initialToken:loadItemsWithToken:)` of the
/// originals; a ``TableBinding`` pairs it with a row template.
///
/// Each viewer walks the source on its own: its first batch loads `initialToken`, each later batch the token the
/// previous one returned; a reload starts again from `initialToken`. The loader may be slow or throw (the viewer
/// sees an error row with Retry, which loads the same token again); when the viewer leaves, reloads or the batch
/// times out, the task running the loader is cancelled, so `Task.isCancelled`, `try Task.checkCancellation()`
/// and cancellable awaits (`Task.sleep`, `URLSession`) end the load early.
///
/// Tokens travel to the browser inside resume tokens (`Last-Event-ID`) and come back when it reconnects: they are
/// JSON-encoded and sealed with ``ServerConfiguration/sealingKeys``, so a client can neither read nor forge one,
/// and a token sealed with a key the server does not hold (random keys and a restart) starts the table over.
///
/// ```swift
/// let source = BatchSource<Order, Int>(initialToken: 0) { offset in
///     let orders = try await store.orders(from: offset, limit: 50)
///     return orders.count < 50 ? .completed(orders) : .items(orders, next: offset + orders.count)
/// }
/// ```
///
/// Thread-safe and `Sendable`: the loader is called from Swift's cooperative pool, concurrently for different
/// viewers (never twice at once for one viewer), so whatever it captures must be `Sendable`. A loader given as
/// `(Token) async throws` may read the viewer it loads for from ``Viewer/current`` (bound around each call from
/// the table's ``RowRequest``); one given as `(Token, RowRequest) async throws` gets it passed.
///
/// A code table's ``RowSource``: every use walks with the same loader; its walk is the request it serves.
public struct BatchSource<Item: Sendable, Token: Codable & Sendable & Equatable>: RowSource {
    /// Loads the batch for one token.
    public typealias Loader = @Sendable (Token) async throws -> LoadResult<Item, Token>
    /// Loads the batch for one token, for the request it is given.
    public typealias RequestLoader = @Sendable (Token, RowRequest) async throws -> LoadResult<Item, Token>

    /// The token of the first batch.
    public let initialToken: Token
    /// Whether a viewer's first batch may start loading on the event loop that opens its stream (``RowSource``);
    /// a code-defined source's loader runs on the cooperative pool, as documented above.
    public let startsOnCaller: Bool
    private let load: RequestLoader

    /// A source whose first batch is `initialToken` and whose batches come from `load`.
    ///
    /// ```swift
    /// let source = BatchSource<Repo, String?>(initialToken: nil) { cursor in
    ///     let page = try await github.repos(cursor: cursor)
    ///     return page.nextCursor.map { .items(page.repos, next: $0) } ?? .completed(page.repos)
    /// }
    /// ```
    public init(initialToken: Token, load: @escaping Loader) {
        self.init(initialToken: initialToken, startsOnCaller: false, load: load)
    }

    /// A source whose first batch is `initialToken` and whose batches come from `load`, given the request each is
    /// for (the viewer, explicitly).
    ///
    /// ```swift
    /// let source = BatchSource<Order, Int>(initialToken: 0, loadFor: { offset, request in
    ///     try await store.orders(of: request.viewer.name, from: offset)
    /// })
    /// ```
    public init(initialToken: Token, loadFor load: @escaping RequestLoader) {
        self.initialToken = initialToken
        self.startsOnCaller = false
        self.load = load
    }

    /// A source whose loader never blocks and does little before it first suspends (`startsOnCaller`: tests of
    /// the first batch on the caller).
    package init(initialToken: Token, startsOnCaller: Bool, load: @escaping Loader) {
        self.initialToken = initialToken
        self.startsOnCaller = startsOnCaller
        self.load = { token, request in
            try await Viewer.$current.withValue(request.viewer) { try await load(token) }
        }
    }

    public func walk(for request: RowRequest) -> RowRequest { request }

    public func batch(at token: Token, in request: RowRequest) async throws -> LoadResult<Item, Token> {
        try await load(token, request)
    }
}

extension BatchSource where Token == Int {
    /// A source over numbered pages (the `.items` case of the originals): page `firstPage`, then `firstPage + 1`,
    /// and so on; the first empty page ends the list.
    ///
    /// ```swift
    /// let source = BatchSource<Person, Int>.pages { page in try await directory.people(page: page) }
    /// ```
    public static func pages(
        from firstPage: Int = 1, load: @escaping @Sendable (_ page: Int) async throws -> [Item]
    ) -> BatchSource {
        BatchSource(initialToken: firstPage) { page in
            let items = try await load(page)
            return items.isEmpty ? .completed([]) : .items(items, next: page + 1)
        }
    }
}

extension BatchSource where Token == Int {
    /// A source over an array in memory, `batchSize` items a batch (the token is the offset of the next batch).
    ///
    /// ```swift
    /// let source = BatchSource.array(["apple", "pear", "plum"], batchSize: 2)
    /// ```
    public static func array(_ items: [Item], batchSize: Int) -> BatchSource {
        precondition(batchSize >= 1, "a batch holds at least one item")
        return BatchSource(initialToken: 0) { offset in
            let start = min(max(offset, 0), items.count)
            let end = min(start + batchSize, items.count)
            let batch = Array(items[start..<end])
            return end >= items.count ? .completed(batch) : .items(batch, next: end)
        }
    }
}
