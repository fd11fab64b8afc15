import Access
import HTTPServer
import JSON
import Tables

/// The routes of pages (``DashboardPage``, docs/PROTOCOL.md "Pages"): the page, its one event stream, the page list,
/// and `reload` with a new sort and filter choice for a table on a page.
extension ServerRoutes {
    func addDashboardPageRoutes(to router: inout RouterBuilder) {
        router.get("/pages/{name}") { request, parameters throws(HTTPError) in
            let page = try dashboardPage(parameters["name"])
            guard let rendered = dashboardPages.rendered[page.name] else { throw HTTPError(.notFound, "no such page") }
            return .now(rendered.response(to: request, viewer: signedIn()))
        }
        router.get("/pages/{name}/stream") { request, parameters throws(HTTPError) in
            try dashboardPageStream(request, page: try dashboardPage(parameters["name"]))
        }
        router.get("/api/pages") { _, _ in
            let list: JSONValue = ["pages": .array(dashboardPageListing())]
            return .now(.json(list.serialized()))
        }
    }

    /// The signed-in header of the viewer being answered (``SignedInHeader``; "" in modes none and tokens).
    func signedIn() -> String {
        SignedInHeader(configuration.access).html(for: .current)
    }

    /// The pages' entries for `/api/pages` and `/api/tables`: those the viewer may see.
    func dashboardPageListing() -> [JSONValue] {
        dashboardPages.order.compactMap { dashboardPages.pages[$0] }
            .filter { configuration.access.admits(page: $0.name, showing: $0.page.tables) }
            .map { $0.listing() }
    }

    /// The page `name`, if the viewer may see it and each of its tables (else 403: docs/SECURITY.md).
    private func dashboardPage(_ name: String?) throws(HTTPError) -> ResolvedDashboardPage {
        guard let name, let page = dashboardPages.pages[name] else { throw HTTPError(.notFound, "no such page") }
        guard configuration.access.admits(page: name, showing: page.page.tables) else {
            throw HTTPError(.forbidden, "you may not see this page")
        }
        for table in page.tables { try admit(table: table.name) }
        return page
    }

    /// Where each table of a page stream starts.
    private struct Plan {
        let table: TableBinding
        var resume: ResumeToken?
        var query: QueryChoice.Query
    }

    /// Opens a viewer's page stream: one session per table on one connection. `Last-Event-ID` (or `?lastEventId=`)
    /// resumes every table after its last delivered batch; a token this server cannot read for this page (garbage,
    /// another page, a cursor sealed with a key this server does not hold, a choice that is no option) starts every
    /// table over with a `reset`. Every table finished and none live: 204, so the browser stops. A token is read (decoded, its
    /// sealed cursors opened) off the event loops (`.later`): a client chooses what that costs.
    private func dashboardPageStream(_ request: HTTPRequest, page: ResolvedDashboardPage) throws(HTTPError) -> HTTPResult {
        let lastEventID = request.headers[HTTPFieldName.lastEventID] ?? request.queryValue("lastEventId")
        let given = lastEventID.map { !$0.isEmpty } == true
        let cells = try Self.cellMarkup(request)
        var liveFeeds: [String: LiveFeed] = [:]
        for table in page.tables { liveFeeds[table.name] = try feeds.feed(for: table.name, viewer: viewer) }
        let answering = rowRequest()
        let open: @Sendable () -> HTTPResponse = { [self, liveFeeds] in
            dashboardPageStreamResponse(page: page, lastEventID: lastEventID, given: given, feeds: liveFeeds, cells: cells,
                                        request: answering)
        }
        return given ? .later(open) : .now(open())
    }

    /// The stream of `dashboardPageStream(_:page:)` from the client's token (nil: none); `given`: the client sent one. Its live
    /// tables' changes come from `liveFeeds` (by table name: the viewer's); their rows are loaded for `request`, their
    /// cells written as `cells` says.
    private func dashboardPageStreamResponse(page: ResolvedDashboardPage, lastEventID: String?, given: Bool,
                                             feeds liveFeeds: [String: LiveFeed], cells: CellMarkup,
                                             request: RowRequest) -> HTTPResponse {
        var token = lastEventID.flatMap { DashboardPageToken(decoding: $0, page: page.name) }
        var plans = page.tables.map { Plan(table: $0, resume: nil, query: []) }
        for index in plans.indices {
            guard let decoded = token, let entry = decoded.tables[plans[index].table.name] else { continue }
            guard let plan = Self.plan(plans[index].table, entry: entry, viewer: request.viewer) else {
                token = nil
                break
            }
            plans[index] = plan
        }
        if token == nil { plans = page.tables.map { Plan(table: $0, resume: nil, query: []) } }
        let finished = plans.allSatisfy { $0.resume?.position == .finished }
        if finished, plans.allSatisfy({ liveFeeds[$0.table.name] == nil }) { return HTTPResponse(status: .noContent) }
        for index in plans.indices {
            // Finished on a page whose other tables go on: say `complete` again (and keep a live table's changes).
            guard let resume = plans[index].resume, resume.position == .finished else { continue }
            plans[index].resume = ResumeToken(table: resume.table, offset: resume.offset, position: .end)
        }
        let resetFirst = given && token == nil
        let resumeToken = token
        let opened = plans
        let registry = registry, metrics = metrics, timeout = configuration.batchTimeout
        let heartbeats = heartbeats
        return .eventStream(retryMilliseconds: configuration.retryMilliseconds) { writer in
            let stream = DashboardPageStream(page: page.name, tables: page.tables.map(\.name), writer: writer, token: resumeToken)
            for plan in opened {
                let name = plan.table.name
                ViewerSession.open(
                    table: plan.table, channel: stream.channel(for: plan.table), resume: plan.resume,
                    resetFirst: resetFirst, registry: registry, metrics: metrics, batchTimeout: timeout,
                    feed: liveFeeds[name], query: plan.query, onChoice: { (query) throws(HTTPError) in try stream.choose(query, table: name) },
                    cells: cells, request: request
                )
            }
            heartbeats.start(on: writer)
        }
    }

    /// A table's start from its entry in a page token; nil if the entry is not this server's (unreadable resume
    /// token, a cursor it did not seal for `viewer`, a choice that is not one of the table's options).
    private static func plan(_ table: TableBinding, entry: DashboardPageToken.Entry, viewer: Viewer) -> Plan? {
        guard let resume = ResumeToken(decoding: entry.resume, table: table.name) else { return nil }
        if case .after(let cursor) = resume.position, !table.isValid(cursor, for: viewer) { return nil }
        guard let query = try? controlQuery(entry.query, table: table) else { return nil }
        return Plan(table: table, resume: resume, query: query)
    }

    /// A choice given as `parameter -> value` (a page token's, or a reload's `p.PARAMETER=VALUE`): each parameter
    /// must be one of the table's controls and each value one of its options; empty values send nothing. The
    /// result is in the order of the table's controls.
    static func controlQuery(_ choice: [String: String], table: TableBinding) throws(HTTPError) -> QueryChoice.Query {
        for parameter in choice.keys where !table.controls.contains(where: { $0.parameter == parameter })
            && table.search?.parameter != parameter {
            throw HTTPError(.badRequest, "the table has no such control")
        }
        var query: QueryChoice.Query = []
        for control in table.controls {
            guard let value = choice[control.parameter] else { continue }
            guard control.options.contains(where: { $0.value == value }) else {
                throw HTTPError(.badRequest, "\(control.parameter) must be one of the table's options")
            }
            if !value.isEmpty { query.append((control.parameter, value)) }
        }
        if let search = table.search, let value = choice[search.parameter], let text = try search.checked(value) {
            query.append((search.parameter, text))
        }
        return query
    }

    /// `POST /tables/NAME/sessions/ID/reload`: starts over. For a session of a page's stream, `choice` (the request's
    /// `p.PARAMETER=VALUE`, ``reloadChoice(_:table:)``) makes the named controls take those values first (the others
    /// keep theirs; 400 for a value that is not an option). A table's own stream keeps its choice in its URL: its
    /// sessions ignore them, as before.
    func reload(choice: [String: String], session: ViewerSession) throws(HTTPError) {
        guard session.acceptsChoices, !choice.isEmpty else { return session.reload() }
        var merged = Dictionary(session.query.map { ($0.name, $0.value) }, uniquingKeysWith: { _, last in last })
        merged.merge(choice) { _, new in new }
        try session.reload(choosing: try Self.controlQuery(merged, table: session.table))
    }
}
