import JSON
import RowstreamKit
import Tables
import Upstream

/// One table of a config file, validated: how its rows look, where they come from and how pages link.
///
/// Thread-safe: an immutable value. The request template may hold secrets from the environment; nothing here
/// is ever sent to a browser (the routes expose only name, title and columns).
public struct TableConfig: Sendable {
    public var spec: TableSpec
    public var template: PageRequestTemplate
    public var itemsPath: JSONPath
    public var style: PaginationStyle
    public var checks: PageChecks
    public var retry: RetryPolicy
    /// How long a fetched page is served from memory to other viewers (zero: coalescing only).
    public var cacheTTL: Duration
    /// Whether the page after a demanded one is fetched ahead.
    public var prefetch: Bool
    /// Empty pages with a cursor skipped in a row before the batch fails.
    public var maxEmptyPages: Int
    /// Items per batch, asked of the upstream as its page size.
    public var batchSize: Int
    /// Live updates of the head (`"live": {"intervalSeconds": N, "refreshPerMinute": M, "refreshBurst": B,
    /// "maxPartitions": P}` (P: a forwarding table's identities with a live feed at once); `{}`: on
    /// POST refresh only); nil: not live.
    public var live: LiveUpdates?
    /// Sort and filter controls mapped to upstream query parameters.
    public var controls: [TableControl] = []
    /// The search box (`"search": {"parameter": "q", "maxLength": 100, "label": "Search"}`); nil: none.
    public var search: TableSearch?
    /// What the JSON proxy (`/api/tables/NAME/pages`) shows of each upstream item (`"proxy": {"items": ...}`);
    /// nil: no proxy (`"proxy": {"enabled": false}`), 404.
    public var proxyItems: ProxyItems? = .columns
    /// What of the viewer every page request carries (`"forward"`); nil: nothing, one cache for all viewers.
    public var forward: ViewerForwarding?
    /// Most rows of one export (`"export": {"maxRows": N}`, docs/CONFIG.md "Export").
    public var exportMaxRows = TableBinding.defaultExportMaxRows

    init(_ reader: ConfigReader, environment: [String: String]) throws(ConfigError) {
        var reader = reader
        try reader.rejectUnknown(["name", "title", "batchSize", "items", "key", "columns", "request", "pagination",
                                  "checks", "retry", "cache", "sections", "live", "grid", "controls", "proxy", "forward",
                                  "export", "detail", "skeleton", "search", "timeZone", "locale"])
        let name = try reader.requiredString("name")
        guard name.utf8.count <= 64, name.utf8.allSatisfy({ (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2D || $0 == 0x5F }) else {
            throw reader.error("name", "1 to 64 of a-z, 0-9, - and _ (it is part of the table's URLs)")
        }
        let title = try reader.string("title") ?? name
        batchSize = try reader.int("batchSize", in: 1...500) ?? 50
        guard let itemsPath = try reader.jsonPath("items") else { throw reader.error("items", "the JSON path of the items array, such as data or edges[].node") }
        self.itemsPath = itemsPath
        let key = try reader.jsonPath("key") ?? JSONPath(components: [.key("id")])
        guard let columnList = try reader.array("columns"), !columnList.isEmpty else {
            throw reader.error("columns", "a non-empty array of columns")
        }
        var columns: [Column] = []
        var sorts: [HeaderSortConfig] = []
        for (i, element) in columnList.enumerated() {
            var column = try ConfigReader(element, file: reader.file, path: reader.keyPath("columns") + "[\(i)]")
            if let sort = try HeaderSortConfig(column: i, in: &column) { sorts.append(sort) }
            columns.append(try Self.column(column))
        }
        spec = TableSpec(name: name, title: title, columns: columns, keyField: key)
        if let detail = try reader.object("detail") { spec.detail = try Self.detail(detail) }
        spec.viewerFormats = try ViewerFormatsConfig.read(&reader)
        if let list = try reader.array("controls") {
            controls = try Self.controls(list, at: reader)
        }
        controls = try HeaderSortConfig.apply(sorts, to: controls, columns: columns)
        if let block = try reader.object("search") { search = try Self.search(block, controls: controls) }
        if let sections = try reader.object("sections") { spec.sections = try Self.sections(sections) }
        if let skeleton = try reader.object("skeleton") { spec.skeleton = try SkeletonConfig.style(skeleton) }
        if var grid = try reader.object("grid") {
            guard let title = try grid.jsonPath("title") else { throw grid.error("title", "the JSON path of each card's title") }
            spec.grid = GridSpec(titleField: title, imageField: try grid.jsonPath("image"))
            try grid.finish()
            if spec.sections != nil { throw reader.error("grid", "not together with sections (not supported yet)") }
        }

        guard let request = try reader.object("request") else { throw reader.error("request", "an object with the upstream url") }
        template = try Self.template(request, environment: environment)
        template.pageSize = batchSize

        guard let pagination = try reader.object("pagination") else {
            throw reader.error("pagination", "an object with a style")
        }
        let paging = try PaginationConfig(pagination, keyPath: key)
        style = paging.style
        template.limitParameter = paging.sizeParameter
        maxEmptyPages = paging.maxEmptyPages
        checks = PageChecks()
        checks.hasMorePath = paging.hasMorePath
        checks.totalPath = paging.totalPath
        if case .cursorInBody = style, let body = template.body, body.objectValue == nil {
            throw reader.error("request.body", "an object (the cursor is put into it)")
        }

        if var check = try reader.object("checks") {
            checks.okPath = try check.jsonPath("okPath")
            checks.errorPath = try check.jsonPath("errorPath")
            try check.finish()
        }
        retry = RetryPolicy()
        if var retryReader = try reader.object("retry") {
            if let n = try retryReader.int("attempts", in: 1...10) { retry.maxAttempts = n }
            if let d = try retryReader.seconds("baseDelaySeconds", in: 0...60) { retry.baseDelay = d }
            if let d = try retryReader.seconds("maxDelaySeconds", in: 0...300) { retry.maxDelay = d }
            if let d = try retryReader.seconds("maxRetryAfterSeconds", in: 0...600) { retry.maxRetryAfter = d }
            if let flag = try retryReader.bool("nonIdempotent") { retry.retryNonIdempotent = flag }
            try retryReader.finish()
        }
        if var liveReader = try reader.object("live") {
            var limit = RefreshLimit.standard
            if let burst = try liveReader.int("refreshBurst", in: 1...1_000) { limit.burst = burst }
            if let perMinute = try liveReader.int("refreshPerMinute", in: 1...60_000) {
                limit = RefreshLimit(perMinute: perMinute, burst: limit.burst)
            }
            live = LiveUpdates(every: try liveReader.seconds("intervalSeconds", in: 1...86_400), limit: limit)
            if let partitions = try liveReader.int("maxPartitions", in: 1...100_000) { live?.maxPartitions = partitions }
            try liveReader.finish()
        }
        if var proxy = try reader.object("proxy") {
            if let name = try proxy.string("items") {
                guard let items = ProxyItems(rawValue: name) else {
                    throw proxy.error("items", "one of " + ProxyItems.allCases.map(\.rawValue).joined(separator: ", "))
                }
                proxyItems = items
            }
            if try proxy.bool("enabled") == false { proxyItems = nil }
            try proxy.finish()
        }
        if let forwardReader = try reader.object("forward") {
            forward = try ViewerForwarding(forwardReader)
        }
        if var export = try reader.object("export") {
            if let n = try export.int("maxRows", in: 1...100_000_000) { exportMaxRows = n }
            try export.finish()
        }
        cacheTTL = PageCacheDefaults.ttl
        prefetch = true
        if var cache = try reader.object("cache") {
            if let d = try cache.seconds("ttlSeconds", in: 0...3_600) { cacheTTL = d }
            if let flag = try cache.bool("prefetch") { prefetch = flag }
            try cache.finish()
        }
        try reader.finish()
    }

    private static func column(_ reader: ConfigReader) throws(ConfigError) -> Column {
        var reader = reader
        guard let path = try reader.jsonPath("path") else { throw reader.error("path", "the JSON path of the value in an item") }
        let title = try reader.string("title") ?? path.description
        let formatName = try reader.string("format") ?? "text"
        guard let format = ColumnFormat(rawValue: formatName) else {
            throw reader.error("format", "one of " + ColumnFormat.allCases.map(\.rawValue).joined(separator: ", "))
        }
        let width = try reader.string("width")
        if let width, !Column.isValidWidth(width) { throw reader.error("width", "a CSS length such as 8rem, 120px or 20%") }
        let minWidth = try reader.string("minWidth")
        if let minWidth, !Column.isValidWidth(minWidth) {
            throw reader.error("minWidth", "a CSS length such as 6rem or 90px")
        }
        let decimals = try reader.int("decimals", in: 0...Column.maximumDecimals)
        if decimals != nil, ![.number, .bar, .progress].contains(format) {
            throw reader.error("decimals", "only for a column of format number, bar or progress")
        }
        let range = try ChartRangeConfig.range(in: &reader, format: format)
        let label = try reader.jsonPath("label")
        try reader.finish()
        return Column(title: title, field: path, format: format, width: width, labelField: label, minWidth: minWidth,
                      decimals: decimals, range: range)
    }

    private static func template(_ reader: ConfigReader, environment: [String: String]) throws(ConfigError) -> PageRequestTemplate {
        var reader = reader
        let file = reader.file
        let rawURL = try reader.requiredString("url", "an absolute http or https URL")
        let url = try ConfigEnvironment.substitute(rawURL, environment: environment, at: reader.keyPath("url"), file: file)
        guard UpstreamOrigin(url: url) != nil, !url.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }) else {
            throw reader.error("url", "an absolute http or https URL with a host (no user info, no spaces)")
        }
        var template = PageRequestTemplate(url: url)
        let method = (try reader.string("method") ?? "GET").uppercased()
        guard !method.isEmpty, method.utf8.allSatisfy({ (0x41...0x5A).contains($0) }) else {
            throw reader.error("method", "an HTTP method such as GET or POST")
        }
        template.method = method
        for (name, value) in try reader.stringMap("query") {
            let at = reader.keyPath("query") + "." + name
            template.query.append((name, try ConfigEnvironment.substitute(value, environment: environment, at: at, file: file)))
        }
        for (name, value) in try reader.stringMap("headers") {
            let at = reader.keyPath("headers") + "." + name
            guard UpstreamRequest.isHeaderName(name) else { throw ConfigError(file: file, keyPath: at, expected: "a header name (an HTTP token)") }
            let filled = try ConfigEnvironment.substitute(value, environment: environment, at: at, file: file)
            guard !filled.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" }) else {
                throw ConfigError(file: file, keyPath: at, expected: "a header value without CR, LF or NUL")
            }
            template.headers.append((name, filled))
        }
        if let body = reader.value("body") {
            template.body = try ConfigEnvironment.substitute(body, environment: environment, at: reader.keyPath("body"), file: file)
        }
        if let timeout = try reader.seconds("timeoutSeconds", in: 0.1...600) { template.timeout = timeout }
        try reader.finish()
        return template
    }
}
