import Dashboard
import Foundation
import HTTPServer
import HTTPServerTesting
import RowstreamKit
import TestSupport
import Testing

/// A live table that forwards the viewer's own credential (``ViewerCredentials``'s `livemine`): one live feed per
/// identity, each with its own head and diffs, broadcast to that identity's viewers only; at most `maxPartitions`
/// (2) identities at once, a partition stopped when its last viewer leaves.
@Suite struct ViewerCredentialsLiveTests {
    typealias Fixture = ViewerCredentials

    /// A viewer of `livemine` as `user`, after its first rows (the head as sent).
    static func watch(_ client: InProcessClient, as user: String) async throws -> InProcessStream {
        let response = await client.get("/tables/livemine/stream", headers: Fixture.headers(user))
        let stream = try #require(response.stream, "\(user): \(response.status): \(response.text)")
        let rows = try await stream.next(named: "rows").event
        #expect(rows.data.contains("row of \(user) 1"), "\(user): \(rows.data)")
        return stream
    }

    /// POSTs a refresh as `user`: its JSON answer.
    static func refresh(_ client: InProcessClient, as user: String) async throws -> [String: Any] {
        let response = await client.post("/tables/livemine/refresh", headers: Fixture.headers(user))
        #expect(response.status == .ok, "\(user): \(response.status): \(response.text)")
        return try jsonObject(response.text)
    }

    @Test func twoCredentialsSeeTheirOwnLiveChangesOnly() async throws {
        try await Fixture.withDashboard { client, upstream in
            let alice = try await Self.watch(client, as: "alice")
            defer { alice.close() }
            let alice2 = try await Self.watch(client, as: "alice")
            defer { alice2.close() }
            let bob = try await Self.watch(client, as: "bob")
            defer { bob.close() }

            upstream.bump("alice")
            let aliceRefresh = try await Self.refresh(client, as: "alice")
            #expect(aliceRefresh["inserted"] as? Int == 1 && aliceRefresh["viewers"] as? Int == 2, "\(aliceRefresh)")
            for stream in [alice, alice2] {
                let insert = try await stream.next(named: "insert").event
                #expect(insert.data.contains("new of alice 1") && !insert.data.contains("bob"), "\(insert.data)")
            }

            upstream.bump("bob")
            upstream.bump("bob")
            let bobRefresh = try await Self.refresh(client, as: "bob")
            #expect(bobRefresh["inserted"] as? Int == 2 && bobRefresh["viewers"] as? Int == 1, "\(bobRefresh)")
            let (bobsInsert, bobSkipped) = try await bob.next(named: "insert")
            #expect(bobsInsert.data.contains("new of bob 2") && bobsInsert.data.contains("new of bob 1"))
            #expect(!(bobSkipped + [bobsInsert]).contains { $0.data.contains("alice") }, "bob saw nothing of alice's")

            // Alice's next change is hers; nothing of Bob's came between.
            upstream.bump("alice")
            _ = try await Self.refresh(client, as: "alice")
            let (next, skipped) = try await alice.next(named: "insert")
            #expect(next.data.contains("new of alice 2"))
            #expect(!(skipped + [next]).contains { $0.data.contains("bob") }, "alice saw nothing of bob's")

            // A credential nobody watches with here: nothing to refresh, nothing fetched.
            let before = upstream.total
            let nobody = try await Self.refresh(client, as: "carol")
            #expect(nobody["viewers"] as? Int == 0 && nobody["inserted"] as? Int == 0)
            #expect(upstream.total == before)
        }
    }

    @Test func atMostMaxPartitionsIdentitiesAndAPartitionStopsWithItsLastViewer() async throws {
        try await Fixture.withDashboard { client, _ in
            let alice = try await Self.watch(client, as: "alice")
            let bob = try await Self.watch(client, as: "bob")
            defer { bob.close() }
            // Two identities' feeds run: a third identity waits.
            let full = await client.get("/tables/livemine/stream", headers: Fixture.headers("carol"))
            #expect(full.status == .serviceUnavailable && full.text.contains("too many viewers' live feeds"), "\(full.text)")
            // /metrics shows the table at its cap.
            let metrics = await client.get("/metrics").text
            #expect(metrics.contains("rowstream_live_partitions{table=\"livemine\"} 2\n"), "\(metrics)")
            #expect(metrics.contains("rowstream_live_partitions_max{table=\"livemine\"} 2\n"))
            // A sorted view or the JSON proxy needs no live feed.
            #expect(await client.get("/api/tables/livemine/pages", headers: Fixture.headers("carol")).status == .ok)

            // Alice leaves: her partition stops, and Carol gets one of her own.
            alice.close()
            var carol: InProcessStream?
            let admitted = await eventually(timeout: .seconds(30)) {
                let response = await client.get("/tables/livemine/stream", headers: Fixture.headers("carol"))
                carol = response.stream
                return response.status == .ok
            }
            #expect(admitted)
            let carols = try #require(carol)
            defer { carols.close() }
            let rows = try await carols.next(named: "rows").event
            #expect(rows.data.contains("row of carol 1") && !rows.data.contains("alice") && !rows.data.contains("bob"))
            // Now Alice is the third.
            #expect(await client.get("/tables/livemine/stream", headers: Fixture.headers("alice")).status == .serviceUnavailable)
        }
    }
}
