import Foundation
import HTTPServerTesting
import RowstreamKit
import RowstreamTesting
import Testing

/// A page's position (the `id:` of its stream's events, sent back as `Last-Event-ID`) carries every table's search:
/// a search that would make it too long for the server to read back is refused where it is typed (a page's
/// `reload`, 400 with what to do), and nothing is lost: the refused table keeps its list, the accepted searches stay
/// in the position.
@Suite struct PageChoiceBoundTests {
    static let tables = (0..<8).map { "t\($0)" }

    /// 200 characters (the config's longest search), each 2 bytes of UTF-8 or escaped in JSON.
    static let longText = String(repeating: "é\"", count: 100)

    @Test func aSearchThatWouldOverfillThePagesPositionIsRefusedAndLosesNothing() async throws {
        let bindings = Self.tables.map { name in
            var table = peopleTable(ReportedTotalStreamTests.source { _ in nil }, name: name)
            table.search = TableSearch(parameter: "q", maxLength: 200)
            return table
        }
        let server = try RowstreamTestServer(bindings, pages: [DashboardPage(name: "all", title: "All", tables: Self.tables)])
        defer { server.shutdown() }
        let stream = try await server.client.stream("/pages/all/stream")
        defer { stream.close() }
        var reloads: [String: String] = [:]
        var events: [ReceivedEvent] = []
        for _ in 0..<200 where reloads.count < Self.tables.count {
            let event = try #require(try await stream.nextEvent())
            if event.event.hasSuffix(":session"), let json = try JSONSerialization.jsonObject(with: Data(event.data.utf8)) as? [String: Any] {
                reloads[String(event.event.dropLast(":session".count))] = json["reload"] as? String
            }
        }
        #expect(reloads.count == Self.tables.count)

        let text = try #require(Self.longText.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
        var accepted: [String] = [], refused: [String] = []
        for name in Self.tables {
            let answer = await server.client.post(try #require(reloads[name]) + "?p.q=" + text)
            if answer.status == .accepted {
                accepted.append(name)
            } else {
                #expect(answer.status == .badRequest)
                #expect(answer.text.contains("too long together"), "says what is wrong: \(answer.text)")
                refused.append(name)
            }
        }
        #expect(!accepted.isEmpty && !refused.isEmpty, "some fit, the rest are refused: \(accepted) \(refused)")
        #expect(accepted + refused == Self.tables, "once full, every further search is refused")

        // Each accepted table starts over (reset); a refused one does not: it keeps its list.
        var resets: Set<String> = []
        for _ in 0..<400 where resets.count < accepted.count {
            let event = try #require(try await stream.nextEvent())
            events.append(event)
            if event.event.hasSuffix(":reset") { resets.insert(String(event.event.dropLast(":reset".count))) }
        }
        #expect(resets == Set(accepted))
        // The position after them holds every accepted search, and fits the request a reconnect sends.
        let token = try #require(events.last(where: { $0.id != nil })?.id)
        #expect(token.utf8.count < 16 * 1024)
        let payload = try #require(Self.base64URLDecoded(String(token.dropFirst("p1.".count))))
        let json = try #require(try JSONSerialization.jsonObject(with: payload) as? [String: Any])
        let positions = try #require(json["t"] as? [String: [String: Any]])
        for name in accepted {
            #expect((positions[name]?["q"] as? [String: String])?["q"] == Self.longText, "\(name)'s search is kept")
        }
        // A reconnect with it resumes every table (a position it could not read would reset them all, each table's
        // `reset` right after its `session`, all written as the stream opens: before the last table's `session`).
        let again = try await server.client.stream("/pages/all/stream", lastEventID: token)
        defer { again.close() }
        var first: [String] = []
        for _ in 0..<100 where !first.contains("t7:session") {
            first.append(try #require(try await again.nextEvent()).event)
        }
        #expect(first.filter { $0.hasSuffix(":session") }.count == Self.tables.count)
        #expect(!first.contains { $0.hasSuffix(":reset") }, "resumed, not started over: \(first)")
    }

    static func base64URLDecoded(_ text: String) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }
}
