import Dashboard
import Foundation
import HTTPServer
import HTTPServerTesting
import JSON
import TestSupport
import Testing

/// A page whose next link leads to another origin (issue 12, item 2): its good rows are delivered, the following
/// batch ends with the error, and the foreign link is never followed, for next links in the body and in the
/// `Link` header alike (docs/CONFIG.md, "Errors").
@Suite("A bad next link fails the following batch, not the page")
struct ForeignNextLinkTests {
    /// An upstream whose one page has 50 items and a next link to `foreign`, and a foreign server whose request
    /// log must stay empty: both TestSupport's fixture server.
    struct Upstreams: StoppableUpstream {
        let upstream: FixtureServer
        let foreign: FixtureServer
        /// Requests the foreign server got.
        var foreignCount: Int { foreign.requests.count }

        init() throws {
            foreign = try FixtureServer { _ in .json(#"{"data":[{"id":666}]}"#) }
            // Another port is another origin (scheme, host and port).
            let link = "\(foreign.baseURL)/v1/items?page=2"
            let items = (1...50).map { ["id": .int(Int64($0)), "name": .string("item \($0)")] as JSONValue }
            let body: JSONValue = ["data": .array(items), "next": .string(link)]
            let page = FixtureReply.json(body.serialized(), headers: [("Link", "<\(link)>; rel=\"next\"")])
            do {
                upstream = try FixtureServer { _ in page }
            } catch {
                foreign.stop()
                throw error
            }
        }

        func stop() {
            upstream.stop()
            foreign.stop()
        }

        func config() -> String {
            func table(_ name: String, _ pagination: String) -> String {
                """
                {"name": "\(name)", "batchSize": 50, "request": {"url": "\(upstream.baseURL)/v1/items"},
                 "items": "data", "columns": [{"path": "id"}, {"path": "name"}], "pagination": \(pagination),
                 "cache": {"ttlSeconds": 0, "prefetch": true}}
                """
            }
            return """
                {"tables": [\(table("bodylink", #"{"style": "next-url", "nextPath": "next"}"#)),
                            \(table("headerlink", #"{"style": "link-header"}"#))]}
                """
        }
    }

    @Test("the page's 50 rows arrive; the next batch is the error; the foreign host gets nothing",
          arguments: ["bodylink", "headerlink"])
    func goodRowsThenTheError(table: String) async throws {
        try await withDashboard(over: try Upstreams(), config: { $0.config() }, file: "foreign.json") { dashboard, upstreams in

            let stream = try await SSEClient(port: dashboard.port, path: "/tables/\(table)/stream")
            let session = try sessionInfo(try await stream.next(named: "session").event)
            let next = try #require(session["next"] as? String)
            // The first batch: its rows, not an error (before the fix the whole page failed).
            var first: ReceivedEvent?
            for _ in 0..<100 {
                guard let event = try await stream.next() else { break }
                if event.event == "rows" || event.event == "error" { first = event; break }
            }
            let rows = try #require(first)
            #expect(rows.event == "rows", "\(rows.event): \(rows.data)")
            #expect(rowKeys(rows.data) == (1...50).map(String.init))
            #expect(!rows.data.contains("<!--rs:last-->"), "more was announced: this is not the last batch")

            #expect(try await post(dashboard.port, next) == 202)
            let (error, skipped) = try await stream.next(named: "error")
            #expect(!skipped.contains { $0.event == "rows" || $0.event == "complete" })
            let body = try JSONSerialization.jsonObject(with: Data(error.data.utf8)) as? [String: Any]
            let message = try #require(body?["message"] as? String)
            #expect(message.contains("the upstream pointed to another host; the link was not followed"), "\(message)")
            #expect(body?["retryable"] as? Bool == false)
            stream.connection.closeNow()
            #expect(upstreams.foreignCount == 0, "the foreign link was never followed (prefetch included)")
        }
    }
}
