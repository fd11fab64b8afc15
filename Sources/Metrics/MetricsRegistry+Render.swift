/// Rendering in the Prometheus text exposition format 0.0.4 (`text/plain; version=0.0.4`).
extension MetricsRegistry {
    /// The content type to serve ``render()``'s output with.
    public static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    /// Prometheus text exposition format 0.0.4: one `# HELP` and `# TYPE` per metric name, families
    /// sorted by name and series by their label block, label values escaped (`\\`, `\"`, `\n`).
    ///
    /// Thread-safe; gauge and counter functions are called on the caller's thread, outside the registry's lock.
    public func render() -> String {
        var out = ""
        for family in familiesSnapshot().sorted(by: { $0.name < $1.name }) {
            out += "# HELP \(family.name) \(PrometheusText.escapeHelp(family.help))\n"
            out += "# TYPE \(family.name) \(family.kind.rawValue)\n"
            let series = family.series.map { (labels: $0.key, series: $0.value) }
                .sorted { $0.labels.rendered < $1.labels.rendered }
            for (labels, value) in series {
                Self.render(value, name: family.name, labels: labels, into: &out)
            }
        }
        return out
    }

    private static func render(_ series: MetricFamily.Series, name: String, labels: LabelSet, into out: inout String) {
        switch series {
        case .counter(let counter):
            out += "\(name)\(labels.rendered) \(counter.value)\n"
        case .gauge(let gauge):
            out += "\(name)\(labels.rendered) \(PrometheusText.format(gauge.value))\n"
        case .function(let sample):
            out += "\(name)\(labels.rendered) \(sample())\n"
        case .histogram(let histogram):
            let snapshot = histogram.snapshot()
            let bounds = histogram.upperBounds.map(PrometheusText.format) + ["+Inf"]
            for (bound, count) in zip(bounds, snapshot.cumulative) {
                let block = PrometheusText.labelBlock(labels.pairs(adding: (name: "le", value: bound)))
                out += "\(name)_bucket\(block) \(count)\n"
            }
            out += "\(name)_sum\(labels.rendered) \(PrometheusText.format(snapshot.sum))\n"
            out += "\(name)_count\(labels.rendered) \(snapshot.count)\n"
        }
    }
}
