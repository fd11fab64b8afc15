/// Who may reach a server and see what (docs/SECURITY.md): the mode that identifies viewers, the API tokens, a
/// trusted proxy, the allow lists of tables and pages, and `/metrics`' own rule.
///
/// ```swift
/// var access = AccessConfiguration()
/// access.mode = .tokens
/// access.tokens = [APIToken(name: "ci", sha256: "9f86d0...", groups: ["ops"])!]
/// access.tables["orders"] = AllowList(groups: ["ops"])
/// configuration.access = access
/// ```
///
/// Thread-safe: a value.
public struct AccessConfiguration: Sendable, Equatable {
    /// nil: not chosen, which means ``AccessMode/none`` on a loopback address; a server listening on any other
    /// address refuses to start without a choice.
    public var mode: AccessMode?
    /// The API tokens accepted as `Authorization: Bearer` in every mode but `none`.
    public var tokens: [APIToken] = []
    /// The reverse proxy of mode `proxy`; in every mode, a request from its addresses with `X-Forwarded-Proto: https`
    /// gets `Secure` cookies.
    public var proxy: TrustedProxy?
    /// The users of mode `users`.
    public var users: [UserAccount] = []
    /// How long a session cookie stays valid after sign-in (12 hours by default).
    public var sessionLifetime: Duration = .seconds(12 * 3_600)
    /// Mark session cookies `Secure` on every response (the server is behind TLS); otherwise only when a trusted
    /// proxy says `X-Forwarded-Proto: https`.
    public var secureCookies = false
    /// Limits of failed sign-ins.
    public var loginLimits = LoginThrottle.Limits()
    /// Allow lists of tables, by table name; a table without one is shown to every viewer the mode admits.
    public var tables: [String: AllowList] = [:]
    /// Allow lists of pages (``DashboardPage``), by page name. A page also needs each of its tables' lists: a
    /// viewer who may not see one of its tables may not see the page (403), nor find it listed or linked.
    public var pages: [String: AllowList] = [:]
    /// Who reads `/metrics`; nil: a viewer every table and page admits.
    public var metrics: MetricsAccess?

    public init(mode: AccessMode? = nil) {
        self.mode = mode
    }

    /// The mode a server listening on `host` uses, and the configuration's consistency with the served `tables`
    /// and `pages`; throws ``AccessError`` for an unchosen mode on a non-loopback `host` (nil `host`: not
    /// listening), a mode without what it needs, or a rule naming what is not served.
    public func validated(host: String?, tables served: Set<String>, pages servedPages: Set<String>)
        throws(AccessError) -> AccessMode
    {
        if mode == nil, let host, !IPv4Address.isLoopback(host: host) { throw .notChosen(host: host) }
        let mode = mode ?? .open
        switch mode {
        case .open:
            guard tables.isEmpty, pages.isEmpty else { throw .rulesWithoutViewers }
        case .tokens:
            guard !tokens.isEmpty else { throw .noTokens }
        case .proxy:
            guard let proxy, !proxy.addresses.isEmpty else { throw .noProxy }
        case .users:
            guard !users.isEmpty else { throw .noUsers }
        }
        if let name = tables.keys.sorted().first(where: { !served.contains($0) }) { throw .unknownTable(name) }
        if let name = pages.keys.sorted().first(where: { !servedPages.contains($0) }) { throw .unknownPage(name) }
        return mode
    }

    /// Whether `viewer` may see table `name`.
    public func admits(table name: String, _ viewer: Viewer = .current) -> Bool {
        // No table has a list (the usual case): no name hashed (every arriving viewer asks).
        tables.isEmpty || (tables[name]?.admits(viewer) ?? true)
    }

    /// Whether `viewer` may see page `name`, which shows `shown`: the page's list and each table's.
    public func admits(page name: String, showing shown: [String], _ viewer: Viewer = .current) -> Bool {
        (pages[name]?.admits(viewer) ?? true) && shown.allSatisfy { admits(table: $0, viewer) }
    }

    /// Whether every viewer who may see table `table` may see page `page` (showing `shown`): then the table's page
    /// may link it for everyone (the table's page is one document for all its viewers).
    public func pageFollowsTable(page: String, showing shown: [String], table: String) -> Bool {
        let rule = tables[table]
        return (pages[page] == nil || pages[page] == rule) && shown.allSatisfy { tables[$0] == nil || tables[$0] == rule }
    }
}
