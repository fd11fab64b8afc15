import Locking

/// Creates and owns the process's metrics so `/metrics` can list them; there are no globals, so whoever
/// builds the server makes one registry and hands it to the modules that count things.
///
/// Asking again for the same name and labels returns the same instance, so modules can look metrics up
/// lazily. Names must match `[a-zA-Z_:][a-zA-Z0-9_:]*` and label names `[a-zA-Z_][a-zA-Z0-9_]*`; a bad
/// name, or reusing a name with another type (or other histogram buckets), is a programmer error and
/// stops the process with a precondition failure.
///
/// Thread-safe: every method may be called from any thread. Registration takes one `Lock`; ``render()``
/// copies the series under it and reads values (including gauge functions) outside it.
public final class MetricsRegistry: Sendable {
    private let families = Lock<[String: MetricFamily]>([:])

    /// Creates an empty registry.
    public init() {}

    /// The counter named `name` with `labels`, created on first use. Name counters `*_total`.
    public func counter(_ name: String, help: String, labels: [String: String] = [:]) -> Counter {
        let series = register(name, help: help, kind: .counter, upperBounds: nil, labels: labels) {
            .counter(Counter())
        }
        guard case .counter(let counter) = series else { preconditionFailure("\(name) is not a counter") }
        return counter
    }

    /// The gauge named `name` with `labels`, created on first use.
    public func gauge(_ name: String, help: String, labels: [String: String] = [:]) -> Gauge {
        let series = register(name, help: help, kind: .gauge, upperBounds: nil, labels: labels) {
            .gauge(Gauge())
        }
        guard case .gauge(let gauge) = series else { preconditionFailure("\(name)\(labels) is read by a function") }
        return gauge
    }

    /// The histogram named `name` with `labels`, created on first use.
    ///
    /// - Parameter buckets: finite upper bounds, strictly increasing; `+Inf` is added by the registry.
    ///   Every label set of one name must use the same buckets.
    public func histogram(
        _ name: String, help: String,
        buckets: [Double] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
        labels: [String: String] = [:]
    ) -> Histogram {
        precondition(buckets.allSatisfy(\.isFinite), "histogram \(name): buckets must be finite")
        precondition(zip(buckets, buckets.dropFirst()).allSatisfy { $0 < $1 },
                     "histogram \(name): buckets must be strictly increasing")
        precondition(labels["le"] == nil, "histogram \(name): the label name le is reserved for buckets")
        let series = register(name, help: help, kind: .histogram, upperBounds: buckets, labels: labels) {
            .histogram(Histogram(upperBounds: buckets))
        }
        guard case .histogram(let histogram) = series else { preconditionFailure("\(name) is not a histogram") }
        return histogram
    }

    /// A gauge whose value is read at render time (e.g. open connections owned by another module).
    ///
    /// Registering the same name and labels again replaces the reader. `read` is called from
    /// ``render()``'s thread, outside the registry's lock, so it may take its own locks.
    public func gaugeFunction(
        _ name: String, help: String, labels: [String: String] = [:],
        _ read: @escaping @Sendable () -> Double
    ) {
        registerFunction(name, help: help, kind: .gauge, labels: labels) { PrometheusText.format(read()) }
    }

    /// A counter whose value is read at render time from a total another module keeps (e.g. connections
    /// accepted). `read` must never decrease between calls (Prometheus treats a decrease as a counter reset).
    ///
    /// Registering the same name and labels again replaces the reader. `read` is called from
    /// ``render()``'s thread, outside the registry's lock, so it may take its own locks.
    public func counterFunction(
        _ name: String, help: String, labels: [String: String] = [:],
        _ read: @escaping @Sendable () -> Int
    ) {
        registerFunction(name, help: help, kind: .counter, labels: labels) { String(read()) }
    }

    private func registerFunction(
        _ name: String, help: String, kind: MetricFamily.Kind, labels: [String: String],
        _ sample: @escaping @Sendable () -> String
    ) {
        let key = LabelSet(labels)
        families.withLock { families in
            var family = Self.family(in: families, name: name, help: help, kind: kind, upperBounds: nil)
            switch family.series[key] {
            case nil, .function: break
            default: preconditionFailure("\(name)\(labels) is already a plain \(kind.rawValue)")
            }
            family.series[key] = .function(sample)
            families[name] = family
        }
    }

    /// All families at this instant (the series are shared, thread-safe objects).
    func familiesSnapshot() -> [MetricFamily] {
        families.withLock { Array($0.values) }
    }

    private func register(
        _ name: String, help: String, kind: MetricFamily.Kind, upperBounds: [Double]?,
        labels: [String: String], make: () -> MetricFamily.Series
    ) -> MetricFamily.Series {
        let key = LabelSet(labels)
        return families.withLock { families in
            var family = Self.family(in: families, name: name, help: help, kind: kind, upperBounds: upperBounds)
            if let existing = family.series[key] { return existing }
            let created = make()
            family.series[key] = created
            families[name] = family
            return created
        }
    }

    /// The existing family for `name` (checked to be the same type), or a new empty one.
    private static func family(
        in families: [String: MetricFamily], name: String, help: String,
        kind: MetricFamily.Kind, upperBounds: [Double]?
    ) -> MetricFamily {
        precondition(MetricName.isValidMetricName(name), "invalid Prometheus metric name: \(name)")
        guard let family = families[name] else {
            return MetricFamily(name: name, help: help, kind: kind, upperBounds: upperBounds)
        }
        precondition(family.kind == kind, "metric \(name) is a \(family.kind.rawValue), not a \(kind.rawValue)")
        precondition(family.upperBounds == upperBounds, "histogram \(name) is already registered with other buckets")
        return family
    }
}
