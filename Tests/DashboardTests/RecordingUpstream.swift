import Foundation
import HTTPServer
import Synchronization

/// A fixture upstream on 127.0.0.1 port 0 that keeps its own request log (what really reached it: target,
/// headers, body, arrival time) and answers each request with `answer(request, number)` (1-based count of the
/// requests so far). Thread-safe: the log lives in one `Mutex`; `answer` runs on the server's loop.
final class RecordingUpstream: Sendable {
    struct Logged: Sendable {
        let method: String
        let target: String
        let path: String
        let query: String?
        let userAgent: String?
        let body: String
        let arrived: Date
    }

    /// The log, shared with the server's responder.
    private final class Log: Sendable {
        let entries = Mutex<[Logged]>([])
    }

    let server: HTTPServer
    let port: Int
    private let log = Log()

    init(answer: @escaping @Sendable (HTTPRequest, Int) -> HTTPResponse) throws {
        var configuration = HTTPServerConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.eventLoopCount = 1
        let log = self.log
        server = HTTPServer(configuration: configuration, responder: ClosureResponder { request in
            let entry = Logged(method: request.method.rawValue, target: request.target, path: request.path,
                               query: request.query, userAgent: request.headers["User-Agent"],
                               body: String(decoding: request.body, as: UTF8.self), arrived: Date())
            let number = log.entries.withLock { $0.append(entry); return $0.count }
            return .now(answer(request, number))
        })
        port = try server.start()
    }

    func stop() { server.shutdown() }

    var requests: [Logged] { log.entries.withLock { $0 } }

    /// A page of `count` items `{"id": N, "name": "item N"}` from `offset` in `{"items": [...]}`.
    static func page(offset: Int = 0, count: Int) -> HTTPResponse {
        let items = (offset..<offset + count).map { "{\"id\":\($0 + 1),\"name\":\"item \($0 + 1)\"}" }
        return .json(Array("{\"items\":[\(items.joined(separator: ","))]}".utf8))
    }

    /// `503` with `Retry-After: value`.
    static func unavailable(retryAfter value: String) -> HTTPResponse {
        var response = HTTPResponse.json(Array("{\"error\":\"busy\"}".utf8), status: .serviceUnavailable)
        response.headers.replaceOrAdd(name: "Retry-After", value: value)
        return response
    }

    /// A config of one table `items` over this upstream's `/v1/items` (offset style ending on a short page,
    /// batches of 5, no cache); `request`, `table` and `root` add members to the request, the table and the file.
    func config(request: String = "", table: String = "", root: String = "") -> String {
        """
        {"tables": [{"name": "items", "batchSize": 5,
          "request": {"url": "http://127.0.0.1:\(port)/v1/items"\(request)},
          "items": "items", "columns": [{"path": "name"}],
          "pagination": {"style": "offset"}, "cache": {"ttlSeconds": 0, "prefetch": false}\(table)}]\(root)}
        """
    }
}
