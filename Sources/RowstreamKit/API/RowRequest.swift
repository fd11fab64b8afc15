import Access

/// What a table's rows are loaded for, passed explicitly down the row path (``RowSource/walk(for:)``): the use
/// (a viewer's walk with its controls' query, or a live refresh past any cache), the viewer being served (a
/// forwarding table's requests carry what they sent; a partitioned table's positions are sealed for them) and
/// where failures are logged. The routes make it where a request arrives (the access layer's viewer, the server's
/// ``ServerConfiguration/logger``); a live feed makes it for the viewer it refreshes as.
///
/// Thread-safe: an immutable value. Small on purpose (a use, two references): every viewer session's loader and
/// walk keep one, so the viewer and the logger live once per request, in a box its copies share (idle memory per
/// stream, BENCHMARKS.md).
public struct RowRequest: Sendable {
    /// Who and where, shared by the request's copies.
    private final class Context: Sendable {
        let viewer: Viewer
        let logger: any RowstreamLogger
        init(viewer: Viewer, logger: any RowstreamLogger) {
            self.viewer = viewer
            self.logger = logger
        }
    }

    /// A viewer's walk (with its query) or a live refresh.
    package var use: LoaderUse
    private let context: Context
    /// Who the rows are for (``Viewer/nobody`` outside any request: a table's one live feed).
    public var viewer: Viewer { context.viewer }
    /// Where the load reports what it does not hand to the viewer.
    public var logger: any RowstreamLogger { context.logger }
    /// Where a load reports the list's total (``reportTotal(_:)``); shared by the request's copies (not by
    /// ``countedApart()``'s).
    public private(set) var total: RowTotal

    /// A request for `viewer`'s rows, reported to `logger`: a walk of the table as configured.
    public init(viewer: Viewer = .nobody, logger: any RowstreamLogger = StandardErrorLogger()) {
        self.init(use: .plain, viewer: viewer, logger: logger)
    }

    package init(use: LoaderUse, viewer: Viewer, logger: any RowstreamLogger) {
        self.use = use
        context = Context(viewer: viewer, logger: logger)
        total = RowTotal()
    }

    /// Reports how many rows the whole list holds (a loader whose source counts them: `SELECT count(*)`, an API's
    /// `total`): the page's header then says "150 of 2,500" instead of "150 so far".
    public func reportTotal(_ total: Int) { self.total.report(total) }

    /// A live refresh of the head (read past any cache).
    public var isRefresh: Bool { if case .fresh = use { true } else { false } }

    /// The upstream query parameters the viewer's controls chose (empty: the table as configured, or a refresh).
    public var query: [(name: String, value: String)] { if case .viewer(let query) = use { query } else { [] } }

    /// The same request with a total of its own: each viewer session's (a page's tables share one request).
    package func countedApart() -> RowRequest {
        var request = self
        request.total = RowTotal()
        return request
    }

    /// The same request for another use.
    package func using(_ use: LoaderUse) -> RowRequest {
        var request = self
        request.use = use
        return request
    }
}
