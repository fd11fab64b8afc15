import HTTPServer
import Metrics
import Testing
@testable import RowstreamKit

/// The hook the compression code reports through (``WrittenBytes``): a compressed write adds a series under its
/// coding beside the identity bytes, one observation each per batch written.
@Suite struct TableMetricsHookTests {
    @Test func compressedWriteCountsUnderItsEncoding() {
        let registry = MetricsRegistry()
        let metrics = TableMetrics(registry: registry, table: "t")
        let event = FramedSSEEvent(event: "rows", id: "1") { $0.append(contentsOf: Array(repeating: UInt8(ascii: "a"), count: 1000)) }
        metrics.batchWritten(bytes: event.bytes.count, answered: .now, as: .identity(event.bytes))
        metrics.batchWritten(bytes: event.bytes.count, answered: .now, as: WrittenBytes(encoding: "gzip", count: 40))
        let text = registry.render()
        #expect(text.contains("rowstream_batch_bytes_count{encoding=\"identity\",table=\"t\"} 2\n"))
        #expect(text.contains("rowstream_batch_bytes_sum{encoding=\"identity\",table=\"t\"} \(event.bytes.count * 2)\n"))
        #expect(text.contains("rowstream_batch_bytes_count{encoding=\"gzip\",table=\"t\"} 1\n"))
        #expect(text.contains("rowstream_batch_bytes_sum{encoding=\"gzip\",table=\"t\"} 40\n"))
        #expect(text.contains("rowstream_batch_delivery_seconds_count{table=\"t\"} 2\n"))
    }
}
