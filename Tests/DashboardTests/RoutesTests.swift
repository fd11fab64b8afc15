import Dashboard
import Foundation
import HTTPServer
import HTTPServerTesting
import TestSupport
import Testing

/// The dashboard's routes in-process (`InProcessClient`, no port of its own); static files, health and metrics live.
@Suite("Dashboard routes")
struct RoutesTests {
    @Test("the page's first paint holds the table shell with skeleton rows; ETag answers 304")
    func pageHasSkeletonShell() async throws {
        let dashboard = try startDashboard(inProcess: true, batchSize: 12)
        defer { dashboard.shutdown() }
        let client = InProcessClient(dashboard.responder)
        let page = await client.get("/")
        #expect(page.status == .ok)
        #expect(page.headers["content-type"] == "text/html; charset=utf-8")
        #expect(page.text.contains("id=\"rs-table\""))
        #expect(page.text.contains("data-stream=\"/tables/customers/stream\""))
        #expect(page.text.components(separatedBy: "class=\"rs-skeleton\"").count - 1 == 12 + 1, "12 rows + template")
        #expect(!page.text.contains("<!--rs:"), "every placeholder filled")
        let etag = try #require(page.headers["etag"])
        let cached = await client.get("/", headers: ["If-None-Match": etag])
        #expect(cached.status == .notModified)
        #expect(cached.body.isEmpty)
        #expect(await client.get("/index.html").body == page.body)
        #expect(await client.get("/tables/customers").body == page.body)
        #expect(await client.get("/tables/nope").status == .notFound)
    }

    @Test("live: static assets, health and metrics")
    func assetsHealthMetrics() async throws {
        let dashboard = try startDashboard()
        defer { dashboard.shutdown() }
        let script = try await fetch(dashboard.port, "GET", "/app.js")
        #expect(script.status == 200)
        #expect(script.headers["content-type"]?.contains("javascript") == true)
        #expect(try await fetch(dashboard.port, "GET", "/app.css").status == 200)
        #expect(try await fetch(dashboard.port, "GET", "/../Package.swift").status != 200)
        #expect(try await fetch(dashboard.port, "GET", "/healthz").body == "ok\n")

        let stream = try await SSEClient(port: dashboard.port, path: "/tables/customers/stream")
        _ = try await stream.next(named: "rows")
        // The counters are updated around the batch's delivery, not before the viewer can read it: poll.
        var metrics = TestResponse(status: 0, headers: [:], body: "")
        let counted = try await eventually {
            metrics = try await fetch(dashboard.port, "GET", "/metrics")
            return ["rowstream_batches_sent_total 1", "rowstream_upstream_requests_total{outcome=\"ok\"} 1",
                    "rowstream_upstream_request_duration_seconds_count 1"].allSatisfy(metrics.body.contains)
        }
        #expect(counted, "metrics never counted the batch: \(metrics.body)")
        #expect(metrics.status == 200)
        #expect(metrics.body.contains("rowstream_batches_sent_total 1"))
        #expect(metrics.body.contains("rowstream_streams_open 1"))
        #expect(metrics.body.contains("# TYPE rowstream_connections_accepted_total counter\n"))
        #expect(metrics.body.contains("# TYPE rowstream_http_requests_total counter\n"))
        #expect(metrics.body.contains("# TYPE rowstream_streams_open gauge\n"))
        #expect(metrics.body.contains("rowstream_upstream_requests_total{outcome=\"ok\"} 1"))
        #expect(metrics.body.contains("rowstream_upstream_request_duration_seconds_count 1"))
    }

    @Test("GET /api/tables lists the table with its columns and stream URL")
    func tableListing() async throws {
        let dashboard = try startDashboard(inProcess: true, batchSize: 7)
        defer { dashboard.shutdown() }
        let response = await InProcessClient(dashboard.responder).get("/api/tables")
        #expect(response.headers["content-type"]?.hasPrefix("application/json") == true)
        let object = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
        let tables = try #require(object?["tables"] as? [[String: Any]])
        #expect(tables.count == 1)
        #expect(tables[0]["name"] as? String == "customers")
        #expect(tables[0]["stream"] as? String == "/tables/customers/stream")
        #expect(tables[0]["batchSize"] as? Int == 7)
        let columns = try #require(tables[0]["columns"] as? [[String: Any]])
        #expect(columns.map { $0["format"] as? String } == ["number", "text", "text", "badge", "text", "number", "bar", "sparkline", "date", "link"])
    }

    @Test("the JSON page proxy normalizes the upstream's pages to {items, next, done}")
    func pageProxy() async throws {
        let dashboard = try startDashboard(inProcess: true, items: 25, batchSize: 10)
        defer { dashboard.shutdown() }
        let client = InProcessClient(dashboard.responder)
        var cursor: String? = nil
        var ids: [Int] = []
        for _ in 0..<10 {
            let query = cursor.map { "?cursor=" + ($0.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "") } ?? ""
            let response = await client.get("/api/tables/customers/pages" + query)
            #expect(response.status == .ok)
            let page = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
            ids += (page["items"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? Int }
            if page["done"] as? Bool == true { break }
            cursor = page["next"] as? String
        }
        #expect(ids == Array(1...25))
        let bad = await client.get("/api/tables/customers/pages?cursor=nonsense")
        #expect(bad.status == .badRequest, "cursors are sealed: one the server did not hand out never reaches the upstream")
        #expect(bad.text.contains("cursor is not valid"))
    }

    @Test("demand for malformed sessions or unknown tables is 404, for sessions not held here 204; wrong methods 405")
    func unknownSessions() async throws {
        let dashboard = try startDashboard(inProcess: true)
        defer { dashboard.shutdown() }
        let client = InProcessClient(dashboard.responder)
        let unknown = "/tables/customers/sessions/0123456789abcdef0123456789abcdef/next"
        #expect(await client.post(unknown).status == .noContent, "not held here: ended (docs/PROTOCOL.md)")
        #expect(await client.post("/tables/customers/sessions/<script>/next").status == .notFound)
        #expect(await client.post("/tables/nope/sessions/0123456789abcdef0123456789abcdef/reload").status == .notFound)
        // GET next is Turbo's lazy frame (docs/DIALECTS.md): a session not held here gets its empty frame, ended.
        #expect(await client.get(unknown, headers: ["Turbo-Frame": "f"]).headers["Rowstream-Session"] == "ended")
        let wrongMethod = await client.get("/tables/customers/sessions/0123456789abcdef0123456789abcdef/reload")
        #expect(wrongMethod.status == .methodNotAllowed)
        #expect(wrongMethod.headers["Allow"] == "POST")
        #expect(await client.get("/tables/nope/stream").status == .notFound)
        let hostile = await client.get("/tables/%3Cscript%3E/stream")
        #expect(hostile.status == .notFound)
        #expect(!hostile.text.contains("<script>"))
    }
}
