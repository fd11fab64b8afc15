import Testing
@testable import Metrics

@Suite struct RenderTests {
    @Test func rendersSmallRegistryExactly() {
        let registry = MetricsRegistry()
        let requests = registry.counter("http_requests_total", help: "HTTP requests served.", labels: ["status": "200"])
        registry.counter("http_requests_total", help: "HTTP requests served.", labels: ["status": "404"]).increment()
        requests.increment(by: 3)
        registry.gauge("sse_subscribers", help: "Open SSE streams.").set(2.5)
        registry.gaugeFunction("open_connections", help: "Sockets open.") { 7 }
        let latency = registry.histogram("upstream_seconds", help: "Upstream latency.", buckets: [0.1, 1],
                                         labels: ["table": "users"])
        latency.observe(0.05)
        latency.observe(0.5)
        latency.observe(3)

        let expected = """
            # HELP http_requests_total HTTP requests served.
            # TYPE http_requests_total counter
            http_requests_total{status="200"} 3
            http_requests_total{status="404"} 1
            # HELP open_connections Sockets open.
            # TYPE open_connections gauge
            open_connections 7
            # HELP sse_subscribers Open SSE streams.
            # TYPE sse_subscribers gauge
            sse_subscribers 2.5
            # HELP upstream_seconds Upstream latency.
            # TYPE upstream_seconds histogram
            upstream_seconds_bucket{table="users",le="0.1"} 1
            upstream_seconds_bucket{table="users",le="1"} 2
            upstream_seconds_bucket{table="users",le="+Inf"} 3
            upstream_seconds_sum{table="users"} 3.55
            upstream_seconds_count{table="users"} 3

            """
        #expect(registry.render() == expected)
    }

    @Test func emptyRegistryRendersNothing() {
        #expect(MetricsRegistry().render() == "")
    }

    @Test func escapesLabelValuesAndHelp() {
        let registry = MetricsRegistry()
        registry.counter("odd_total", help: "Back\\slash and\nnewline \"kept\".",
                         labels: ["path": "C:\\dir\n\"quoted\""]).increment()
        let lines = registry.render().split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[0] == #"# HELP odd_total Back\\slash and\nnewline "kept"."#)
        #expect(lines[2] == #"odd_total{path="C:\\dir\n\"quoted\""} 1"#)
    }

    @Test func labelsAreSortedByNameWithinASeries() {
        let registry = MetricsRegistry()
        registry.gauge("g", help: "h", labels: ["zone": "b", "app": "a"]).set(1)
        #expect(registry.render().contains(#"g{app="a",zone="b"} 1"#))
    }

    @Test func gaugeFunctionIsReadAtRenderTime() {
        let registry = MetricsRegistry()
        let source = Gauge()
        registry.gaugeFunction("live", help: "h") { source.value }
        source.set(4)
        #expect(registry.render().contains("live 4\n"))
        source.set(-1.25)
        #expect(registry.render().contains("live -1.25\n"))
    }

    @Test func counterFunctionIsTypedCounterAndReadAtRenderTime() {
        let registry = MetricsRegistry()
        let total = Counter()
        registry.counterFunction("accepted_total", help: "Accepted.") { total.value }
        total.increment(by: 41)
        total.increment()
        let text = registry.render()
        #expect(text.contains("# TYPE accepted_total counter\n"))
        #expect(text.contains("accepted_total 42\n"))
    }

    @Test func functionReplacesFunctionOfTheSameSeries() {
        let registry = MetricsRegistry()
        registry.counterFunction("n_total", help: "h") { 1 }
        registry.counterFunction("n_total", help: "h") { 2 }
        #expect(registry.render().contains("n_total 2\n"))
        #expect(!registry.render().contains("n_total 1\n"))
    }

    @Test(arguments: [
        (3.0, "3"), (0.005, "0.005"), (-2.0, "-2"), (Double.infinity, "+Inf"),
        (-Double.infinity, "-Inf"), (Double.nan, "NaN"), (1e20, "1e+20"),
    ])
    func formatsSampleValues(value: Double, text: String) {
        #expect(PrometheusText.format(value) == text)
    }
}
