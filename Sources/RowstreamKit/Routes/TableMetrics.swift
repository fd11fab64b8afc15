import HTTPServer
import Locking
import Metrics

/// One table's histograms in `/metrics` (docs/PROTOCOL.md, "Metrics"), labelled `table`: how long its source takes
/// to answer a batch, how long a batch takes to render, how long from the answer to the last byte of the batch's
/// event handed to a viewer's socket, and the batch event's bytes per content coding.
///
/// Cheap on the hot path: one observation per batch (never per row), each a short `Lock` in its ``Histogram``;
/// the identity-bytes series is looked up once, here.
/// Thread-safe: immutable; the histograms are thread-safe. A class so each session holds one reference.
final class TableMetrics: Sendable {
    let registry: MetricsRegistry
    let table: String
    /// Time for the table's source to answer one batch: an upstream fetch, a wait for one already running, or a
    /// cache hit (so the low buckets count the answers no upstream request was made for). Observed by the
    /// ``RowPipeline``'s loader of each viewer's session.
    let upstream: Histogram
    /// Time to render one batch's rows into its event's bytes.
    let render: Histogram
    /// Time from the source's answer to the last byte of the batch's event handed to the viewer's socket.
    let delivery: Histogram
    /// Bytes of a batch's event as rendered, before any compression (`encoding="identity"`).
    let identityBytes: Histogram
    /// The bytes series of each coding a stream wrote a batch in (`gzip`), registered at its first batch, then read
    /// here: looking it up in the registry (its label set built and hashed) cost a gzip viewer about 4,500
    /// instructions a batch.
    private let codedSeries = Lock<[(encoding: String, histogram: Histogram)]>([])

    static let secondsBuckets: [Double] = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
    static let renderBuckets: [Double] = [0.000_01, 0.000_05, 0.000_1, 0.000_25, 0.000_5, 0.001, 0.0025, 0.005,
                                          0.01, 0.025, 0.1]
    static let byteBuckets: [Double] = [256, 1024, 4096, 16_384, 32_768, 65_536, 262_144, 1_048_576]
    static let bytesName = "rowstream_batch_bytes"
    static let bytesHelp = "Bytes of a batch's event written to a viewer, by content coding (identity: before compression)."

    init(registry: MetricsRegistry, table: String) {
        self.registry = registry
        self.table = table
        let labels = ["table": table]
        upstream = registry.histogram(
            "rowstream_table_upstream_seconds",
            help: "Time for a table's source to answer one batch (an upstream fetch, a wait for one, or a cache hit).",
            buckets: Self.secondsBuckets, labels: labels)
        render = registry.histogram(
            "rowstream_batch_render_seconds", help: "Time to render one batch's rows into its event.",
            buckets: Self.renderBuckets, labels: labels)
        delivery = registry.histogram(
            "rowstream_batch_delivery_seconds",
            help: "Time from a batch's upstream answer to the last byte of its event handed to the viewer's socket.",
            buckets: Self.secondsBuckets, labels: labels)
        identityBytes = registry.histogram(
            Self.bytesName, help: Self.bytesHelp, buckets: Self.byteBuckets,
            labels: ["table": table, "encoding": "identity"])
    }

    /// Records one batch event written to a viewer: its delivery time since `answered`, its `bytes` as rendered
    /// (`identity`: head and body), and, when the stream compressed it, the bytes it wrote under their coding. The compression
    /// code reports those through ``WrittenBytes`` (``StreamWriter/write(_:whenWritten:)``).
    func batchWritten(bytes: Int, answered: ContinuousClock.Instant, as written: WrittenBytes) {
        delivery.observe(since: answered)
        identityBytes.observe(Double(bytes))
        guard written.encoding != "identity" else { return }
        codedBytes(written.encoding).observe(Double(written.count))
    }

    private func codedBytes(_ encoding: String) -> Histogram {
        if let kept = codedSeries.withLock({ $0.first { $0.encoding == encoding }?.histogram }) { return kept }
        let histogram = registry.histogram(Self.bytesName, help: Self.bytesHelp, buckets: Self.byteBuckets,
                                           labels: ["table": table, "encoding": encoding])
        codedSeries.withLock { kept in
            if !kept.contains(where: { $0.encoding == encoding }) { kept.append((encoding, histogram)) }
        }
        return histogram
    }
}
