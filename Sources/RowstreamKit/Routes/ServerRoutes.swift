import HTTPServer
import JSON
import Sealing
import Tables

/// The server's HTTP surface (docs/PROTOCOL.md): the page, the table list, one event stream per viewer, the
/// demand and reload inputs, the normalized JSON page proxy, health and metrics; static files otherwise.
/// Built once at start-up; the router it produces is immutable.
struct ServerRoutes {
    let tables: [String: TableBinding]
    let order: [String]
    /// Each table's own HTML document, by table name.
    let tableDocuments: [String: RenderedDocument]
    /// Pages of several tables (``DashboardPage``).
    let dashboardPages: DashboardPageSet
    let registry: SessionRegistry
    /// Live tables' feeds by table name (a partitioned table's: per identity).
    let feeds: LiveFeeds
    let metrics: ServerMetrics
    let configuration: ServerConfiguration
    let staticFiles: StaticFiles
    /// Every viewer stream's `heartbeat` events, from one timer.
    let heartbeats: StreamHeartbeat

    func router() -> Router {
        var router = RouterBuilder()
        router.get("/") { request, _ throws(HTTPError) in
            .now(try tableDocument(try firstVisibleTable()).response(to: request, viewer: signedIn()))
        }
        router.get("/index.html") { request, _ throws(HTTPError) in
            .now(try tableDocument(try firstVisibleTable()).response(to: request, viewer: signedIn()))
        }
        router.get("/tables/{name}") { request, parameters throws(HTTPError) in
            .now(try tableDocument(parameters["name"] ?? "").response(to: request, viewer: signedIn()))
        }
        router.get("/api/tables") { _, _ in
            let visible = order.filter { configuration.access.admits(table: $0) }
            var list: [String: JSONValue] = ["tables": .array(visible.compactMap { tables[$0]?.listing() })]
            if !dashboardPages.order.isEmpty { list["pages"] = .array(dashboardPageListing()) }
            return .now(.json(JSONValue.object(list).serialized()))
        }
        router.get("/tables/{name}/stream") { request, parameters throws(HTTPError) in
            try stream(request, table: try table(parameters["name"]))
        }
        router.post("/tables/{name}/sessions/{id}/next") { _, parameters throws(HTTPError) in
            let accepted = HTTPResponse(status: .accepted)
            switch try demandTarget(parameters) {
            case (_, .here(let viewer)):
                viewer.loadNext()
                return .now(accepted)
            case (let table, .elsewhere(let owner, let id)):
                return forward(RelayedDemand(kind: .next, table: table.name, session: id), to: owner, done: accepted)
            case (_, .ended):
                return .now(Self.sessionEnded())
            }
        }
        router.get("/tables/{name}/sessions/{id}/next") { request, parameters throws(HTTPError) in
            try lazyFrameNext(request, target: try demandTarget(parameters))
        }
        router.post("/tables/{name}/sessions/{id}/reload") { request, parameters throws(HTTPError) in
            let accepted = HTTPResponse(status: .accepted)
            let (table, target) = try demandTarget(parameters)
            let choice = try reloadChoice(request, table: table)
            switch target {
            case .here(let viewer):
                try reload(choice: choice, session: viewer)
                return .now(accepted)
            case .elsewhere(let owner, let id):
                // A new choice of a table that forwards the viewer's credentials needs them to make its loader: the
                // owner has not got them. Answered `ended`: the page sends the reload again to its next session.
                guard choice.isEmpty || table.partition == nil else { return .now(Self.sessionEnded()) }
                return forward(RelayedDemand(kind: .reload, table: table.name, session: id, choice: choice),
                               to: owner, done: accepted)
            case .ended:
                return .now(Self.sessionEnded())
            }
        }
        router.post("/tables/{name}/refresh") { _, parameters throws(HTTPError) in
            try refresh(try table(parameters["name"]))
        }
        router.get("/api/tables/{name}/pages") { request, parameters throws(HTTPError) in
            try proxyUpstreamPage(request, table: try table(parameters["name"]))
        }
        router.get("/tables/{name}/html") { request, parameters throws(HTTPError) in
            let table = try table(parameters["name"])
            let query = try controlQuery(request, table: table)
            return try NoScriptDocument(table: table, rows: rowRequest(.viewer(query: query)), viewer: signedIn(),
                                        query: query).respond(to: request)
        }
        router.get("/tables/{name}/rows") { request, parameters throws(HTTPError) in
            // The controls' choice and search the rows were shown with (`p.*`, checked as the stream's: 400 for a value
            // outside the config's rules, before any upstream request): a refill re-reads its batch under that query.
            let table = try table(parameters["name"])
            let query = try controlQuery(request, table: table)
            return try BatchRefetchRoute(table: table, rows: rowRequest(.viewer(query: query))).respond(to: request)
        }
        for format in ExportFormat.allCases {
            router.get("/tables/{name}/export.\(format.fileExtension)") { request, parameters throws(HTTPError) in
                let table = try table(parameters["name"])
                return .now(ExportRoute(table: table, format: format, query: try controlQuery(request, table: table),
                                        request: rowRequest()).response())
            }
        }
        addStyleRoute(to: &router)
        router.get("/healthz") { _, _ in .now(.text("ok\n")) }
        router.get("/metrics") { _, _ in
            var response = HTTPResponse.text(metrics.registry.render())
            response.headers.replaceOrAdd(name: HTTPFieldName.contentType,
                                          value: "text/plain; version=0.0.4; charset=utf-8")
            return .now(response)
        }
        addDashboardPageRoutes(to: &router)
        router.fallback(PublicStaticFiles(files: staticFiles))
        return router.build()
    }

    /// The viewer being answered: the one the access layer admitted (``Viewer/current``, bound around each
    /// request's answer). Read here, where a request arrives, and passed down explicitly from here on
    /// (``rowRequest(_:)``): nothing on the row path reads it.
    var viewer: Viewer { Viewer.current }

    /// What a table's rows are loaded for on this request: `use`, for ``viewer``, logged to the server's logger.
    func rowRequest(_ use: LoaderUse = .plain) -> RowRequest {
        RowRequest(use: use, viewer: viewer, logger: configuration.logger)
    }

    /// The table `name`, if the viewer may see it (``viewer``; else 403, on every route of a table).
    func table(_ name: String?) throws(HTTPError) -> TableBinding {
        guard let name, let table = tables[name] else { throw HTTPError(.notFound, "no such table") }
        try admit(table: name, binding: table)
        return table
    }

    private func tableDocument(_ name: String) throws(HTTPError) -> RenderedDocument {
        guard let document = tableDocuments[name] else { throw HTTPError(.notFound, "no such table") }
        try admit(table: name)
        return document
    }

    /// 403 unless the viewer may see table `name` (docs/SECURITY.md, "Allow lists"), and for a partitioned table
    /// unless it can serve them (their forwarded header or cookie is there and valid: ``ViewerPartition``), so no
    /// route ever calls the upstream with a missing credential.
    func admit(table name: String) throws(HTTPError) {
        try admit(table: name, binding: tables[name])
    }

    /// ``admit(table:)`` of a table already looked up (`binding`, nil when there is none).
    private func admit(table name: String, binding: TableBinding?) throws(HTTPError) {
        let viewer = viewer  // a task-local read and a copy: once
        guard configuration.access.admits(table: name, viewer) else {
            throw HTTPError(.forbidden, "you may not see this table")
        }
        if case .refused(let why)? = binding?.partition(of: viewer) { throw HTTPError(.forbidden, why) }
    }

    /// The home page's table: the first the viewer may see (403 when none).
    private func firstVisibleTable() throws(HTTPError) -> String {
        guard let name = order.first(where: { configuration.access.admits(table: $0) }) else {
            throw HTTPError(.forbidden, "you may not see any table")
        }
        return name
    }

    static let noSuchSession = HTTPError(.notFound, "no such session of this table: a malformed id, or another table's")

    /// The answer to a demand for a session not open here (docs/PROTOCOL.md, "A session that ended"): `204` with
    /// `Rowstream-Session: ended`. Not an error: the stream is gone (or elsewhere), and its reconnect gets a new one.
    static func sessionEnded(_ response: HTTPResponse = HTTPResponse(status: .noContent)) -> HTTPResponse {
        var response = response
        response.headers.replaceOrAdd(name: sessionStateField, value: "ended")
        return response
    }

    static let sessionStateField = "Rowstream-Session"

    /// Opens a viewer's stream. `Last-Event-ID` (or `?lastEventId=` for clients that cannot set headers)
    /// resumes after the last delivered batch; a finished list answers 204 so the browser stops reconnecting.
    /// A token is read (decoded, its sealed cursor opened) off the event loops (`.later`): a client chooses
    /// what that costs.
    private func stream(_ request: HTTPRequest, table: TableBinding) throws(HTTPError) -> HTTPResult {
        let lastEventID = request.headers[HTTPFieldName.lastEventID] ?? request.queryValue("lastEventId")
        let query = try controlQuery(request, table: table)
        let dialect = try StreamDialect(parameter: request.queryValue("dialect"))
        let cells = try Self.cellMarkup(request)
        // Live changes are of the table as configured: a viewer who sorted or filtered it does not get them.
        let viewer = viewer  // a task-local read and a copy: once
        let feed = query.isEmpty ? try feeds.feed(for: table.name, viewer: viewer) : nil
        let answering = RowRequest(use: .plain, viewer: viewer, logger: configuration.logger)
        guard lastEventID.map({ !$0.isEmpty }) == true else {
            // No token: answered here, without a closure that copies the routes (a retain of each of their parts).
            return .now(streamResponse(table: table, lastEventID: lastEventID, query: query, feed: feed,
                                       dialect: dialect, cells: cells, request: answering))
        }
        return .later { [self] in
            streamResponse(table: table, lastEventID: lastEventID, query: query, feed: feed, dialect: dialect,
                           cells: cells, request: answering)
        }
    }

    /// The stream of `stream(_:table:)` from the client's token (nil: none), with the live changes of `feed`, its
    /// rows loaded for `request`.
    private func streamResponse(
        table: TableBinding, lastEventID: String?, query: [(name: String, value: String)], feed: LiveFeed?,
        dialect: StreamDialect?, cells: CellMarkup, request: RowRequest
    ) -> HTTPResponse {
        var decoded = lastEventID.flatMap { ResumeToken(decoding: $0, table: table.name) }
        // A cursor not sealed for this table with one of the server's keys is no position (forged, or sealed with
        // a retired key or another process's random key): start over.
        if case .after(let cursor)? = decoded?.position, !table.isValid(cursor, for: request.viewer) { decoded = nil }
        if let finished = decoded, finished.position == .finished {
            // A live table's finished list still changes: say `complete` again and keep the stream for its changes.
            guard feeds.isLive(table.name) || dialect?.staysOpen == true else { return HTTPResponse(status: .noContent) }
            decoded = ResumeToken(table: table.name, offset: finished.offset, position: .end)
        }
        let resume = decoded
        // A position we cannot read (another version, another table, garbage) starts over, visibly.
        let resetFirst = lastEventID.map { !$0.isEmpty } == true && resume == nil
        let registry = registry, metrics = metrics, timeout = configuration.batchTimeout
        let heartbeats = heartbeats
        return .eventStream(retryMilliseconds: configuration.retryMilliseconds) { writer in
            ViewerSession.open(
                table: table, writer: writer, resume: resume, resetFirst: resetFirst,
                registry: registry, metrics: metrics, batchTimeout: timeout, feed: feed, query: query,
                dialect: dialect, cells: cells, request: request
            )
            heartbeats.start(on: writer)
        }
    }

    /// The cell form a stream's `cells` parameter asks for (``CellMarkup``; absent: classed), else 400.
    static func cellMarkup(_ request: HTTPRequest) throws(HTTPError) -> CellMarkup {
        guard let cells = CellMarkup(parameter: request.queryValue("cells")) else {
            throw HTTPError(.badRequest, "cells must be classed or bare")
        }
        return cells
    }

    /// The upstream query parameters a viewer's controls chose (`?p.sort=city`): each must be one of its control's
    /// options (else 400); empty values send nothing. Then the search's text (``TableSearch``), checked (else 400).
    func controlQuery(_ request: HTTPRequest, table: TableBinding) throws(HTTPError) -> [(name: String, value: String)] {
        var query: [(name: String, value: String)] = []
        for control in table.controls {
            guard let value = request.queryValue(control.streamParameter) else { continue }
            guard control.options.contains(where: { $0.value == value }) else {
                throw HTTPError(.badRequest, "\(control.parameter) must be one of the table's options")
            }
            if !value.isEmpty { query.append((control.parameter, value)) }
        }
        if let search = table.search, let value = try search.value(in: request), let value {
            query.append((search.parameter, value))
        }
        return query
    }

    /// The part of a proxy cursor's seal scope that names the choice it was made for ("" for none, so the cursors
    /// of the table as configured stay as they were): a cursor of one search is no cursor of another.
    static func choiceScope(_ query: [(name: String, value: String)]) -> String {
        query.isEmpty ? "" : "\0choice:" + query.map { "\($0.name.utf8.count):\($0.name)\($0.value.utf8.count):\($0.value)" }.joined()
    }

    /// A live table's refresh (``LiveUpdates``): re-fetch the head, diff, send the changes to every viewer; answers
    /// when done with `{"inserted", "updated", "removed", "viewers", "baseline"}` (and `error` if the load failed,
    /// with 502). Concurrent refreshes share one fetch (``RefreshStateMachine``); one that would start a fetch past
    /// the table's ``RefreshLimit`` is a 429 with `Retry-After`. 404 for a table that is not live. A partitioned
    /// table's refresh is of the viewer's identity's feed; with no viewer of that identity here, nothing is fetched
    /// (`viewers: 0`).
    private func refresh(_ table: TableBinding) throws(HTTPError) -> HTTPResult {
        guard feeds.isLive(table.name) else { throw HTTPError(.notFound, "this table is not live") }
        guard let feed = feeds.runningFeed(for: table.name, viewer: viewer) else { return .now(.json(LiveSummary().json.serialized())) }
        return .later {
            switch await feed.refresh() {
            case .done(let summary):
                return .json(summary.json.serialized(), status: summary.error == nil ? .ok : .badGateway)
            case .refused(let wait):
                return Self.tooManyRefreshes(retryAfter: wait)
            case .abandoned:
                return HTTPError(.serviceUnavailable, "the server is stopping").response
            }
        }
    }

    /// `429` with `Retry-After` in whole seconds (rounded up, at least 1) and the same in the JSON body.
    static func tooManyRefreshes(retryAfter wait: Duration) -> HTTPResponse {
        let (whole, fraction) = wait.components
        let seconds = max(1, whole + (fraction > 0 ? 1 : 0))
        let body: JSONValue = [
            "error": .string("too many refreshes of this table; try again in \(seconds) s"), "retryAfter": .int(seconds),
        ]
        var response = HTTPResponse.json(body.serialized(), status: .tooManyRequests)
        response.headers.replaceOrAdd(name: HTTPFieldName.retryAfter, value: String(seconds))
        return response
    }

    /// The pagination-normalizing proxy of config tables: one upstream page as `{items, next, done}` (and `total`
    /// when the upstream reports the list's count). `next` is
    /// sealed (scope ``TableBinding/proxyScope(for:)``): opaque and tamper-evident, valid for this table's proxy only;
    /// an altered or foreign cursor (a resume token's included) is a 400. The cursor is opened off the event
    /// loop, and one longer than `CursorSeal.maxProxyCursorLength` is refused unread.
    /// Code-defined tables have no such page (their items are not JSON): 404.
    private func proxyUpstreamPage(_ request: HTTPRequest, table: TableBinding) throws(HTTPError) -> HTTPResult {
        guard let proxy = table.upstreamPageProxy else { throw HTTPError(.notFound, "this table has no JSON pages") }
        let sealed = request.queryValue("cursor").flatMap { $0.isEmpty ? nil : $0 }
        // The controls' choice and search (`p.q=`), checked; a cursor is valid for the same choice only.
        let query = try controlQuery(request, table: table)
        let answering = rowRequest(.viewer(query: query)), scope = table.proxyScope(for: viewer) + Self.choiceScope(query)
        return .later {
            var cursor: String? = nil
            if let sealed {
                cursor = table.seal.open(sealed, scope: scope, maxLength: CursorSeal.maxProxyCursorLength)
                guard cursor != nil else {
                    return HTTPError(.badRequest, "the cursor is not valid for this table (altered, or sealed with a key this server does not hold)").response
                }
            }
            do {
                let page = try await proxy(cursor, answering)
                var next = JSONValue.null
                if let raw = page.next {
                    let sealedNext = table.seal.seal(raw, scope: scope)
                    guard sealedNext.utf8.count <= CursorSeal.maxProxyCursorLength else {
                        throw LoadFailure(message: "The upstream's next cursor is too long for the JSON proxy "
                                          + "(\(raw.utf8.count) bytes).", isRetryable: false)
                    }
                    next = .string(sealedNext)
                }
                var body: JSONValue = ["items": .array(page.items), "next": next, "done": .bool(page.next == nil)]
                // The upstream's count of the whole list, when it reports one (issue 28).
                if let total = answering.total.latest, case .object(var members) = body {
                    members["total"] = .int(Int64(total))
                    body = .object(members)
                }
                return .json(body.serialized())
            } catch {
                let failure = LoadFailure(error)
                let body: JSONValue = ["error": .string(failure.message), "retryable": .bool(failure.isRetryable)]
                return .json(body.serialized(), status: .badGateway)
            }
        }
    }
}
