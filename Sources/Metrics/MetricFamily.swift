/// The registry's bookkeeping: one family per metric name, holding one series per label set.
///
/// Thread rules: these are plain values kept inside ``MetricsRegistry``'s `Lock`; the metric objects
/// they point to are themselves thread-safe.
struct MetricFamily: Sendable {
    enum Kind: String, Sendable {
        case counter, gauge, histogram
    }

    enum Series: Sendable {
        case counter(Counter)
        case gauge(Gauge)
        /// A gauge or counter read at render time; the closure gives the formatted sample value.
        case function(@Sendable () -> String)
        case histogram(Histogram)
    }

    let name: String
    let help: String
    let kind: Kind
    /// Only for histograms: every series of one family shares the same bounds.
    let upperBounds: [Double]?
    var series: [LabelSet: Series] = [:]
}

/// A set of labels in a canonical order (sorted by name), usable as a dictionary key.
struct LabelSet: Hashable, Sendable {
    struct Label: Hashable, Sendable {
        let name: String
        let value: String
    }

    let labels: [Label]

    /// - Precondition: every label name is valid (`[a-zA-Z_][a-zA-Z0-9_]*`, not `__*`).
    init(_ dictionary: [String: String]) {
        for name in dictionary.keys {
            precondition(MetricName.isValidLabelName(name), "invalid Prometheus label name: \(name)")
        }
        labels = dictionary.map { Label(name: $0.key, value: $0.value) }.sorted { $0.name < $1.name }
    }

    /// The pairs, optionally followed by one extra label (histograms append `le`).
    func pairs(adding extra: (name: String, value: String)? = nil) -> [(name: String, value: String)] {
        var pairs = labels.map { (name: $0.name, value: $0.value) }
        if let extra { pairs.append(extra) }
        return pairs
    }

    /// The rendered `{...}` block; also the deterministic sort key of series within a family.
    var rendered: String { PrometheusText.labelBlock(pairs()) }
}
