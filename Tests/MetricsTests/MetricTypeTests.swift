import Testing
@testable import Metrics

@Suite struct MetricTypeTests {
    @Test func histogramBucketsAreCumulative() {
        let histogram = MetricsRegistry().histogram("h", help: "h", buckets: [1, 2, 5])
        for v in [0.5, 1, 1.5, 2, 4, 9, 9] { histogram.observe(v) }
        let snapshot = histogram.snapshot()
        // le is inclusive: 0.5 and 1 fall in le=1; 1.5 and 2 in le=2; 4 in le=5; 9 and 9 in +Inf.
        #expect(snapshot.cumulative == [2, 4, 5, 7])
        #expect(snapshot.count == 7)
        #expect(snapshot.sum == 27)
        #expect(histogram.count == 7)
    }

    @Test func gaugeSetsAndAdds() {
        let gauge = MetricsRegistry().gauge("g", help: "h")
        gauge.set(10)
        gauge.add(-2.5)
        gauge.add(0.5)
        #expect(gauge.value == 8)
    }

    @Test func sameNameAndLabelsReturnsTheSameInstance() {
        let registry = MetricsRegistry()
        let a = registry.counter("c_total", help: "h", labels: ["k": "v"])
        let b = registry.counter("c_total", help: "h", labels: ["k": "v"])
        let other = registry.counter("c_total", help: "h", labels: ["k": "w"])
        #expect(a === b)
        #expect(a !== other)
        #expect(registry.gauge("g", help: "h") === registry.gauge("g", help: "h"))
        #expect(registry.histogram("h", help: "h") === registry.histogram("h", help: "h"))
    }

    @Test func concurrentUpdatesAddUpExactly() async {
        let registry = MetricsRegistry()
        let tasks = 16, perTask = 1_000
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<tasks {
                group.addTask {
                    // Look up by name each time: registration must also be race-free.
                    for _ in 0..<perTask {
                        registry.counter("hits_total", help: "h").increment()
                        registry.gauge("level", help: "h").add(1)
                        registry.histogram("sizes", help: "h", buckets: [1]).observe(1)
                    }
                }
            }
        }
        #expect(registry.counter("hits_total", help: "h").value == tasks * perTask)
        #expect(registry.gauge("level", help: "h").value == Double(tasks * perTask))
        #expect(registry.histogram("sizes", help: "h", buckets: [1]).snapshot().cumulative == [tasks * perTask, tasks * perTask])
    }

    @Test(arguments: ["a", "_x", "http:requests_total", "A9_:z"])
    func acceptsValidMetricNames(name: String) {
        #expect(MetricName.isValidMetricName(name))
    }

    @Test(arguments: ["", "9lives", "has space", "dash-ed", "ünï", "a{b}"])
    func rejectsInvalidMetricNames(name: String) {
        #expect(!MetricName.isValidMetricName(name))
    }

    @Test func labelNamesAllowNoColonOrReservedPrefix() {
        #expect(MetricName.isValidLabelName("table_name"))
        #expect(!MetricName.isValidLabelName("a:b"))
        #expect(!MetricName.isValidLabelName("__name__"))
    }
}
