import Dashboard
import Foundation
import HTTPServerTesting
import TestSupport
import Testing

/// Issue 17 part 4: each table's histograms in `/metrics` (docs/PROTOCOL.md, "Metrics") move for the batch a
/// viewer gets, on a live server (the written notice comes from the connection's real socket writes).
@Suite("Per-table metrics")
struct TableMetricsTests {
    static let table = ["table": "customers"]
    static let identity = ["table": "customers", "encoding": "identity"]
    static let counts = [
        ("rowstream_table_upstream_seconds_count", table),
        ("rowstream_batch_render_seconds_count", table),
        ("rowstream_batch_delivery_seconds_count", table),
        ("rowstream_batch_bytes_count", identity),
    ]

    @Test("one batch to one viewer: upstream, render, delivery and bytes each count it; the text format is valid")
    func histogramsMoveForOneBatch() async throws {
        let dashboard = try startDashboard(latencyMilliseconds: 20)
        defer { dashboard.shutdown() }
        let before = try PrometheusExposition(try await fetch(dashboard.port, "GET", "/metrics").body)
        for (name, labels) in Self.counts {
            #expect(before.value(name, labels) == 0, "\(name) listed at start, at 0")
        }
        #expect(before.types["rowstream_batch_delivery_seconds"] == "histogram")

        let stream = try await SSEClient(port: dashboard.port, path: "/tables/customers/stream")
        let rows = try await stream.next(named: "rows").event
        // Recorded around the delivery (the written notice follows the last byte): poll.
        var metrics = before
        let counted = try await eventually {
            metrics = try PrometheusExposition(try await fetch(dashboard.port, "GET", "/metrics").body)
            return Self.counts.allSatisfy { metrics.value($0.0, $0.1) == 1 }
        }
        #expect(counted, "not every histogram counted the batch: \(metrics.samples.filter { $0.name.hasPrefix("rowstream_batch") })")
        let upstream = try #require(metrics.value("rowstream_table_upstream_seconds_sum", Self.table))
        let render = try #require(metrics.value("rowstream_batch_render_seconds_sum", Self.table))
        let delivery = try #require(metrics.value("rowstream_batch_delivery_seconds_sum", Self.table))
        let bytes = try #require(metrics.value("rowstream_batch_bytes_sum", Self.identity))
        #expect(upstream >= 0.02, "the demo upstream answers after 20 ms")
        #expect(render > 0)
        #expect(delivery >= render, "delivery counts from the answer, render included")
        #expect(bytes > Double(rows.data.utf8.count), "the event's bytes: its data and its framing")
        #expect(metrics.value("rowstream_batch_bytes_count", ["table": "customers", "encoding": "gzip"]) == nil,
                "no compressed series before anything is compressed")
    }

    @Test("a gzip-coded stream's batch: bytes counted before (identity) and after compression (gzip), gzip fewer")
    func compressedBytesAreCountedBesideTheIdentityBytes() async throws {
        let dashboard = try startDashboard(latencyMilliseconds: 20)
        defer { dashboard.shutdown() }
        let port = dashboard.port
        try await offPool {
            let client = try TestConnection(port: port)
            try client.send("GET /tables/customers/stream HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept-Encoding: gzip\r\n\r\n")
            let head = try client.readHeadBlocking()
            #expect(head.headers["content-encoding"] == "gzip")
            if head.headers["transfer-encoding"] == "chunked" { client.decodeChunkedBody() }
            var reader = GzipEventReader(client: client)
            _ = try reader.next(named: "rows")
        }
        let gzip = ["table": "customers", "encoding": "gzip"]
        var metrics = try PrometheusExposition(try await fetch(port, "GET", "/metrics").body)
        let counted = try await eventually {
            metrics = try PrometheusExposition(try await fetch(port, "GET", "/metrics").body)
            return metrics.value("rowstream_batch_bytes_count", gzip) == 1
                && metrics.value("rowstream_batch_bytes_count", Self.identity) == 1
        }
        #expect(counted, "\(metrics.samples.filter { $0.name.hasPrefix("rowstream_batch_bytes") })")
        let plain = try #require(metrics.value("rowstream_batch_bytes_sum", Self.identity))
        let compressed = try #require(metrics.value("rowstream_batch_bytes_sum", gzip))
        #expect(compressed > 0 && compressed < plain / 2, "a batch of rows compresses: \(compressed) of \(plain)")
    }
}
