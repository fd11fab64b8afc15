import Dashboard
import Foundation
import TestSupport
import Testing

/// The controls whitelist (docs/CONFIG.md "Sort and filter controls", docs/PROTOCOL.md): checked against the
/// upstream's own request log, so what is asserted is what really reached the upstream.
@Suite("Controls whitelist, as the upstream sees it")
struct ControlsWhitelistTests {
    static let controls = """
        , "controls": [
          {"parameter": "sort", "options": [{"value": "", "label": "Default"}, {"value": "name"}, {"value": "-name"}]},
          {"parameter": "status", "options": [{"value": ""}, {"value": "active"}]}]
        """

    /// The stream's query; the status it answers; the upstream's `sort` and `status` (nil: not sent); nil
    /// expected values and a 400: nothing reaches the upstream.
    @Test(arguments: [
        ("p.sort=name&p.unknown=evil", 200, "name", nil),             // unknown p.* names are ignored
        ("p.sort=name&p.sort=evil", 200, "name", nil),                // repeated: the first counts
        ("p.sort=evil&p.sort=name", 400, nil, nil),
        ("p.%73ort=name&p.st%61tus=active", 200, "name", "active"),   // encoded names are the same names
        ("p.sort=%2Dname", 200, "-name", nil),                        // encoded values are decoded, then checked
        ("p.sort=evil%26status%3Dx", 400, nil, nil),
        ("p.Sort=evil", 200, "id", nil),                              // names are case-sensitive: unknown
        ("p.sort=&p.status=active", 200, "id", "active"),             // empty: the table as configured
        ("sort=evil&status=evil", 200, "id", nil),                    // only p.* names are controls
    ] as [(String, Int, String?, String?)])
    func onlyOptionsReachTheUpstream(query: String, status: Int, sort: String?, filter: String?) async throws {
        try await ConfigPromiseTests.withDashboard({ ConfigPromiseTests.pages($0) }, config: {
            ConfigPromiseTests.config($0, request: #", "query": {"sort": "id"}"#, table: Self.controls)
        }) { dashboard, upstream in
            guard let (items, logged) = try await Self.upstreamQuery(dashboard, upstream, stream: query, status: status) else {
                return
            }
            #expect(Set(items.map(\.name)).isSubset(of: ["sort", "status", "limit", "offset"]), "\(logged.target)")
            #expect(items.filter { $0.name == "sort" }.map(\.value) == (sort.map { [$0] } ?? []), "\(logged.target)")
            #expect(items.filter { $0.name == "status" }.map(\.value) == (filter.map { [$0] } ?? []), "\(logged.target)")
            #expect(!logged.target.contains("evil"))
        }
    }

    /// Opens the table `items`' stream with `query` and expects `status`. A 200: the query items of the upstream's
    /// first request, once the first rows came, and that request; else nil, once it is sure nothing reached the upstream.
    static func upstreamQuery(_ dashboard: Dashboard, _ upstream: FixtureServer, stream query: String,
                              status: Int) async throws -> ([URLQueryItem], FixtureRequest)? {
        let stream = try await SSEClient(port: dashboard.port, path: "/tables/items/stream?\(query)")
        #expect(stream.status == status)
        guard status == 200 else {
            #expect(upstream.requests.isEmpty)
            return nil
        }
        _ = try await stream.next(named: "rows")
        let logged = try #require(upstream.requests.first)
        return (URLComponents(string: "http://x/?" + logged.rawQuery)?.queryItems ?? [], logged)
    }
}
