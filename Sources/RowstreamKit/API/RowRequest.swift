import Access
import HTTPServer
import Synchronization

/// What a table's rows are loaded for, passed explicitly down the row path (``RowSource/walk(for:)``): the use
/// (a viewer's walk with its controls' query, or a live refresh past any cache), the viewer being served (a
/// forwarding table's requests carry what they sent; a partitioned table's positions are sealed for them) and
/// where failures are logged. The routes make it where a request arrives (the access layer's viewer, the server's
/// ``ServerConfiguration/logger``); a live feed makes it for the viewer it refreshes as.
///
/// Thread-safe: an immutable value. Small on purpose (a use and one reference, 16 bytes): every viewer session, its
/// loader and its walk keep one, so the viewer, the logger and the list's total live once per session, in one box
/// the request's copies share (idle memory per stream, BENCHMARKS.md).
public struct RowRequest: Sendable {
    /// What a request's copies share: who, where, and the list's total as last reported and told (``RowTotal``).
    /// One allocation of 120 bytes (a 128-byte heap block); the total is two words, not a lock, to stay in it.
    ///
    /// Thread-safe: immutable but for the two atomic words.
    final class Shared: Sendable {
        let viewer: Viewer
        let logger: any RowstreamLogger
        /// The total last reported, -1: none (``RowTotal/report(_:)``).
        let reported = Atomic<Int>(-1)
        /// The total last told to the viewer, -1: none (``RowTotal/takeChange()``).
        let told = Atomic<Int>(-1)

        init(viewer: Viewer, logger: any RowstreamLogger) {
            self.viewer = viewer
            self.logger = logger
        }
    }

    /// A viewer's walk (with its query) or a live refresh.
    package var use: LoaderUse
    private let shared: Shared
    /// Who the rows are for (``Viewer/nobody`` outside any request: a table's one live feed).
    public var viewer: Viewer { shared.viewer }
    /// Where the load reports what it does not hand to the viewer.
    public var logger: any RowstreamLogger { shared.logger }
    /// Where a load reports the list's total (``reportTotal(_:)``); shared by the request's copies (not by
    /// ``forSession(keepingHeaders:)``'s).
    public var total: RowTotal { RowTotal(shared) }

    /// A request for `viewer`'s rows, reported to `logger`: a walk of the table as configured.
    public init(viewer: Viewer = .nobody, logger: any RowstreamLogger = StandardErrorLogger()) {
        self.init(use: .plain, viewer: viewer, logger: logger)
    }

    package init(use: LoaderUse, viewer: Viewer, logger: any RowstreamLogger) {
        self.use = use
        shared = Shared(viewer: viewer, logger: logger)
    }

    /// Reports how many rows the whole list holds (a loader whose source counts them: `SELECT count(*)`, an API's
    /// `total`): the page's header then says "150 of 2,500" instead of "150 so far".
    public func reportTotal(_ total: Int) { self.total.report(total) }

    /// A live refresh of the head (read past any cache).
    public var isRefresh: Bool { if case .fresh = use { true } else { false } }

    /// The upstream query parameters the viewer's controls chose (empty: the table as configured, or a refresh).
    public var query: [(name: String, value: String)] { if case .viewer(let query) = use { query } else { [] } }

    /// The same request for one viewer session, with a total of its own (a page's tables share one request). The
    /// session keeps it while its stream is open, so it keeps the viewer's request headers (cookies and all) only
    /// if `keepingHeaders`: where the table's source reads them (``RowSource/readsViewerHeaders``).
    package func forSession(keepingHeaders: Bool) -> RowRequest {
        let viewer = keepingHeaders ? viewer : viewer.sending(HTTPHeaders())
        return RowRequest(use: use, viewer: viewer, logger: logger)
    }

    /// The same request for another use.
    package func using(_ use: LoaderUse) -> RowRequest {
        var request = self
        request.use = use
        return request
    }
}
