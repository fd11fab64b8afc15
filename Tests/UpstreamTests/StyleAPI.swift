import Foundation
import JSON
@testable import Upstream

/// Fixture upstreams over the items 1...count, one per pagination style, as real APIs shape them.
/// Each is a pure function of the request, so it can serve from the fixture server's threads.
enum StyleAPI {
    static func items(_ ids: some Sequence<Int>) -> String {
        ids.map { "{\"id\":\($0),\"name\":\"item \($0)\"}" }.joined(separator: ",")
    }

    static func int(_ request: FixtureRequest, _ name: String, _ fallback: Int) -> Int {
        request.query[name].flatMap { Int($0) } ?? fallback
    }

    /// GitHub style: `?page=&per_page=` and a `Link: <...>; rel="next"` header (absolute URLs).
    static func linkHeader(count: Int) -> @Sendable (FixtureRequest) -> FixtureReply {
        { request in
            let base = "http://" + (request.header("host") ?? "")
            let size = int(request, "per_page", 30), page = int(request, "page", 1)
            var headers = [("Content-Type", "application/json")]
            if page * size < count {
                headers.append(("Link", "<\(base)/repos?per_page=\(size)&page=\(page + 1)>; rel=\"next\", <\(base)/repos?page=99>; rel=\"last\""))
            }
            let body = "[" + items(span((page - 1) * size + 1, min(count, page * size))) + "]"
            return .respond(status: 200, headers: headers, body: Array(body.utf8))
        }
    }

    /// A next URL in the body at `links.next`, relative to the page (`/items?after=N`), null at the end.
    static func nextURL(count: Int) -> @Sendable (FixtureRequest) -> FixtureReply {
        { request in
            let size = int(request, "limit", 10), after = int(request, "after", 0)
            let last = min(count, after + size)
            let next = last < count ? "\"/items?after=\(last)&limit=\(size)\"" : "null"
            return .json("{\"data\":[\(items(span(after + 1, last)))],\"links\":{\"next\":\(next)}}")
        }
    }

    /// Token cursor (`meta.next_token`) in the query, or in a JSON POST body when `inBody`.
    static func cursor(count: Int, inBody: Bool = false) -> @Sendable (FixtureRequest) -> FixtureReply {
        { request in
            let size = int(request, "limit", 10)
            var token: String? = request.query["cursor"]
            if inBody {
                guard request.method == "POST", let body = try? JSONValue.parse(request.body) else { return .json("{}", status: 400) }
                token = body["cursor"]?.stringValue
            }
            let start = token.flatMap { Int($0.dropFirst(3)) } ?? 0
            let last = min(count, start + size)
            let next = last < count ? "\"tok\(last)\"" : "null"
            return .json("{\"items\":[\(items(span(start + 1, last)))],\"meta\":{\"next_token\":\(next)}}")
        }
    }

    /// Stripe style: `?starting_after=<id>&limit=` with `has_more`.
    static func keyset(count: Int) -> @Sendable (FixtureRequest) -> FixtureReply {
        { request in
            let size = int(request, "limit", 10), after = int(request, "starting_after", 0)
            let last = min(count, after + size)
            return .json("{\"data\":[\(items(span(after + 1, last)))],\"has_more\":\(last < count)}")
        }
    }

    /// `?offset=&limit=` with a `total`.
    static func offset(count: Int) -> @Sendable (FixtureRequest) -> FixtureReply {
        { request in
            let size = int(request, "limit", 10), offset = int(request, "offset", 0)
            let last = min(count, offset + size)
            return .json("{\"results\":[\(items(span(offset + 1, last)))],\"total\":\(count)}")
        }
    }

    /// `?page=&per_page=` with `total_pages` (omitted when `withTotal` is false: ends on a short page).
    static func pageNumber(count: Int, withTotal: Bool = true) -> @Sendable (FixtureRequest) -> FixtureReply {
        { request in
            let size = int(request, "per_page", 10), page = int(request, "page", 1)
            let first = (page - 1) * size, last = min(count, page * size)
            let total = withTotal ? ",\"total_pages\":\((count + size - 1) / size)" : ""
            return .json("{\"items\":[\(items(span(first + 1, last)))]\(total)}")
        }
    }

    /// GraphQL connection shape: `data.users.edges[].node` and `pageInfo {hasNextPage, endCursor}`.
    static func edges(count: Int) -> @Sendable (FixtureRequest) -> FixtureReply {
        { request in
            let size = int(request, "first", 10), after = int(request, "after", 0)
            let last = min(count, after + size)
            let edges = span(after + 1, last).map { "{\"node\":{\"id\":\($0)}}" }
            return .json("{\"data\":{\"users\":{\"edges\":[\(edges.joined(separator: ","))],\"pageInfo\":{\"hasNextPage\":\(last < count),\"endCursor\":\"\(last)\"}}}}")
        }
    }
}

/// a...b, or nothing when a > b.
func span(_ a: Int, _ b: Int) -> [Int] { a <= b ? Array(a...b) : [] }
