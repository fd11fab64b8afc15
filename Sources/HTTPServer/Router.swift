/// Collects routes, then builds an immutable `Router`: build mutable, serve immutable.
///
/// Patterns are `/`-separated; a `{name}` segment matches any one segment (its value is percent-decoded),
/// other segments match exactly. Routes are tried in the order added.
/// Thread rules: not thread-safe; build on one thread, then serve the `Router` from any.
public struct RouterBuilder {
    public typealias Handler = @Sendable (HTTPRequest, RouteParameters) throws(HTTPError) -> HTTPResult

    private var routes: [Route] = []
    private var fallbackResponder: (any HTTPResponder)?

    public init() {}

    /// Adds a route for `method` and `pattern`.
    public mutating func add(_ method: HTTPMethod, _ pattern: String, _ handler: @escaping Handler) {
        routes.append(Route(method: method, segments: RouteSegment.parse(pattern), handler: handler))
    }

    /// Adds a GET route; it also answers HEAD (the server sends the headers only).
    public mutating func get(_ pattern: String, _ handler: @escaping Handler) { add(.get, pattern, handler) }

    /// Adds a POST route.
    public mutating func post(_ pattern: String, _ handler: @escaping Handler) { add(.post, pattern, handler) }

    /// The responder asked when no route's pattern matches the path (e.g. `StaticFiles`).
    public mutating func fallback(_ responder: any HTTPResponder) { fallbackResponder = responder }

    /// The immutable router.
    public func build() -> Router { Router(routes: routes, fallback: fallbackResponder) }
}

/// An immutable, thread-safe router.
///
/// - A route matching path and method answers (a GET route also answers HEAD, unless a HEAD route matches).
/// - Path matches but no method does -> 405 with `Allow`.
/// - No path matches -> the fallback, or 404.
/// - A thrown `HTTPError` becomes its plain-text response; a malformed `%XX` in a parameter -> 400.
public struct Router: HTTPResponder {
    private let routes: [Route]
    /// For each pattern length in segments, the indices of the routes that long, in the order added: a path is
    /// tried against those only (a route matches only a path of its own length), so a path no route can take (a
    /// static file's) reaches the fallback after a few comparisons, not one per route.
    private let routesByLength: [[Int]]
    private let fallback: (any HTTPResponder)?

    init(routes: [Route], fallback: (any HTTPResponder)?) {
        self.routes = routes
        var byLength = Array(repeating: [Int](), count: (routes.map(\.segments.count).max() ?? 0) + 1)
        for (index, route) in routes.enumerated() { byLength[route.segments.count].append(index) }
        routesByLength = byLength
        self.fallback = fallback
    }

    public func respond(to request: HTTPRequest) -> HTTPResult {
        let path = RouteSegment.pathSegments(request.path)
        let candidates = path.count < routesByLength.count ? routesByLength[path.count] : []
        var chosen: Route?
        var pathMatched = false
        for index in candidates {
            let route = routes[index]
            guard route.matches(path) else { continue }
            pathMatched = true
            if route.method == request.method {
                chosen = route
                break
            }
            if chosen == nil, route.method == .get, request.method == .head { chosen = route }
        }
        if let route = chosen { return call(route, path, request) }
        guard pathMatched else {
            return fallback?.respond(to: request) ?? .now(HTTPError(.notFound, "Not found.").response)
        }
        // 405: the methods the path has, gathered only now (a request a route answers builds no set).
        var allowed: Set<String> = []
        for index in candidates where routes[index].matches(path) {
            allowed.insert(routes[index].method.rawValue)
            if routes[index].method == .get { allowed.insert(HTTPMethod.head.rawValue) }
        }
        var response = HTTPError(.methodNotAllowed, "Method not allowed.").response
        response.headers.add(name: HTTPFieldName.allow, value: allowed.sorted().joined(separator: ", "))
        return .now(response)
    }

    private func call(_ route: Route, _ path: [Substring], _ request: HTTPRequest) -> HTTPResult {
        guard let parameters = route.parameters(path) else {
            return .now(HTTPError(.badRequest, "Malformed percent-encoding in path.").response)
        }
        do {
            return try route.handler(request, parameters)
        } catch {
            return .now(error.response)
        }
    }
}
