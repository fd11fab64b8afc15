import HTTPServer
import JSON
import Synchronization

/// The built-in demo upstream: a slow, paginated JSON API over `DemoData`, served by its own `HTTPServer` on
/// loopback so that the dashboard fetches it through libcurl exactly like a real upstream.
///
/// `GET /v1/customers?limit=N&cursor=C&sort=S&status=T&q=TEXT` answers (`sort`: a field, `-` first for descending;
/// `status`: only records with that status; `q`: only records whose name contains TEXT, ignoring case; see ``DemoView``, also for live mode)
/// `{"data": [...], "next_cursor": "C2" | null, "has_more": bool}`. The cursor is opaque to clients.
/// Every page waits `latency` first; with `failEvery = n`, every n-th page request answers 503, so the error
/// row and its Retry can be seen and tested.
///
/// Thread-safe: `respond(to:)` runs on any event loop; the request counter is atomic.
public final class DemoUpstream: HTTPResponder {
    public struct Configuration: Sendable {
        public var itemCount = 2_500
        public var latency: Duration = .milliseconds(250)
        public var failEvery: Int? = nil
        public var maxPageSize = 500
        /// The loopback port it listens on (0: any free port).
        public var port = 0
        /// Live mode: every `liveEvery` a new customer goes on top and some records change (``DemoView``).
        public var liveEvery: Duration? = nil
        /// The demo table (not the upstream): sorted by and grouped into sections by this field (a sum footer of
        /// MRR); nil: plain rows.
        public var sectionField: String? = nil
        /// The demo table is live (``LiveUpdates``) when live mode is on: refreshed every `refreshEvery`, or only
        /// on POST refresh when nil. The command line sets it to `liveEvery` unless `--demo-refresh-seconds` is given.
        public var refreshEvery: Duration? = nil
        /// The demo table (not the upstream) as cards in a grid, titled by name.
        public var grid = false
        /// The demo table (not the upstream) with sort and status controls and a search by name.
        public var controls = false
        /// Bench mode (``DemoUpstream/stamped(_:number:)``): every page's names carry a timestamp and a sequence
        /// number, so each refresh of the live demo table broadcasts an `update` of every head row.
        public var benchStamp = false
        /// Also serve the demo page `/pages/overview` (``DemoPage``): the demo table, a copy in sections by city and
        /// one as cards, on one event stream.
        public var page = false
        public init() {}
    }

    public let configuration: Configuration
    private let data: DemoData
    private let requests = Atomic<Int>(0)
    private let started = ContinuousClock.now

    public init(configuration: Configuration) {
        self.configuration = configuration
        self.data = DemoData(count: configuration.itemCount)
    }

    /// Page requests answered or refused so far.
    public var requestCount: Int { requests.load(ordering: .relaxed) }

    public func respond(to request: HTTPRequest) -> HTTPResult {
        guard request.path == "/v1/customers" else {
            return .now(Self.error("no such resource", status: .notFound))
        }
        guard request.method == .get || request.method == .head else {
            return .now(Self.error("method not allowed", status: .methodNotAllowed))
        }
        let number = requests.add(1, ordering: .relaxed).newValue
        let response = page(for: request, number: number)
        let latency = configuration.latency
        guard latency > .zero else { return .now(response) }
        return .later {
            try? await Task.sleep(for: latency)
            return response
        }
    }

    private func page(for request: HTTPRequest, number: Int) -> HTTPResponse {
        if let every = configuration.failEvery, every > 0, number % every == 0 {
            return Self.error("demo upstream: injected failure", status: .serviceUnavailable)
        }
        let limit: Int
        if let raw = request.queryValue("limit") {
            guard let parsed = Int(raw), (1...configuration.maxPageSize).contains(parsed) else {
                return Self.error("limit must be 1...\(configuration.maxPageSize)", status: .badRequest)
            }
            limit = parsed
        } else {
            limit = 50
        }
        var offset = 0
        if let cursor = request.queryValue("cursor"), !cursor.isEmpty {
            guard let decoded = DemoCursor.decode(cursor), decoded <= data.count + 1_000 else {
                return Self.error("invalid cursor", status: .badRequest)
            }
            offset = decoded
        }
        let sort = request.queryValue("sort").flatMap { $0.isEmpty ? nil : $0 }
        if let sort, !DemoView.isValidSort(sort) {
            return Self.error("sort must be one of " + DemoView.sortKeys.sorted().joined(separator: ", "), status: .badRequest)
        }
        let status = request.queryValue("status").flatMap { $0.isEmpty ? nil : $0 }
        let name = request.queryValue("q").flatMap { $0.isEmpty ? nil : $0 }
        let view = DemoView(data: data, generation: generation, sort: sort, status: status, name: name)
        let all = view.isPlain ? nil : view.items()
        let count = all?.count ?? data.count
        let end = min(offset + limit, count)
        let hasMore = end < count
        let page = all.map { Array($0[min(offset, end)..<end]) } ?? data.items(in: offset..<end)
        let body: JSONValue = [
            "data": .array(configuration.benchStamp ? Self.stamped(page, number: number) : page),
            "next_cursor": hasMore ? .string(DemoCursor.encode(end)) : .null,
            "has_more": .bool(hasMore),
            "total_count": .int(Int64(count)),   // the list's size, shown as "50 of 1,000" (issue 28)
        ]
        return .json(body.serialized())
    }

    /// Live mode's generation: whole `liveEvery` periods since start (0 without live mode).
    private var generation: Int {
        guard let every = configuration.liveEvery, every > .zero else { return 0 }
        let elapsed = ContinuousClock.now - started
        return Int(elapsed / every)
    }

    private static func error(_ message: String, status: HTTPStatus) -> HTTPResponse {
        let body: JSONValue = ["error": .string(message)]
        return .json(body.serialized(), status: status)
    }
}

/// The demo upstream's cursor: an offset in base 36 behind a prefix, opaque to clients.
enum DemoCursor {
    static func encode(_ offset: Int) -> String { "cur_" + String(offset, radix: 36) }

    static func decode(_ cursor: String) -> Int? {
        guard cursor.hasPrefix("cur_"), cursor.count <= 20 else { return nil }
        guard let value = Int(cursor.dropFirst(4), radix: 36), value >= 0 else { return nil }
        return value
    }
}
