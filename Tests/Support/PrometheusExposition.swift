import Foundation

/// A `/metrics` body read as a scraper would (Prometheus text format 0.0.4), checked line by line: every line is a
/// `# HELP`, a `# TYPE` or a sample of a family typed before it; a histogram's samples are its `_bucket` (with an
/// `le`), `_sum` and `_count`, its buckets cumulative and its `+Inf` bucket equal to its count.
public struct PrometheusExposition: Sendable {
    /// One sample line.
    public struct Sample: Sendable, Equatable {
        public var name: String
        public var labels: [String: String]
        public var value: Double
    }

    public private(set) var samples: [Sample] = []
    public private(set) var types: [String: String] = [:]

    /// Parses `text`; throws naming the first line that is not valid.
    public init(_ text: String) throws {
        guard text.isEmpty || text.hasSuffix("\n") else { throw Invalid("the body does not end with a line feed") }
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
            try read(String(line))
        }
        try checkHistograms()
    }

    /// The value of `name` with exactly `labels`, if there is such a sample.
    public func value(_ name: String, _ labels: [String: String]) -> Double? {
        samples.first { $0.name == name && $0.labels == labels }?.value
    }

    public struct Invalid: Error, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    private static let name = #"[a-zA-Z_:][a-zA-Z0-9_:]*"#
    private static let help = try! NSRegularExpression(pattern: #"^# HELP (\#(name)) .*$"#)
    private static let type = try! NSRegularExpression(
        pattern: #"^# TYPE (\#(name)) (counter|gauge|histogram|summary|untyped)$"#)
    private static let sample = try! NSRegularExpression(
        pattern: #"^(\#(name))(\{([a-zA-Z_][a-zA-Z0-9_]*="(\\.|[^"\\])*"(,[a-zA-Z_][a-zA-Z0-9_]*="(\\.|[^"\\])*")*)\})? (\S+)$"#)
    private static let label = try! NSRegularExpression(pattern: #"([a-zA-Z_][a-zA-Z0-9_]*)="((\\.|[^"\\])*)""#)

    private mutating func read(_ line: String) throws {
        if line.hasPrefix("# HELP ") {
            guard Self.match(Self.help, line) != nil else { throw Invalid("bad HELP line: \(line)") }
        } else if line.hasPrefix("# TYPE ") {
            guard let groups = Self.match(Self.type, line) else { throw Invalid("bad TYPE line: \(line)") }
            guard types[groups[1]] == nil else { throw Invalid("family typed twice: \(line)") }
            types[groups[1]] = groups[2]
        } else {
            guard let groups = Self.match(Self.sample, line) else { throw Invalid("bad sample line: \(line)") }
            let name = groups[1]
            guard family(of: name) != nil else { throw Invalid("sample before its family's TYPE: \(line)") }
            guard let value = groups.last.flatMap(Self.number) else { throw Invalid("bad value: \(line)") }
            samples.append(Sample(name: name, labels: Self.labels(groups[3]), value: value))
        }
    }

    /// The typed family `name` belongs to (a histogram's `_bucket`, `_sum` and `_count` belong to it).
    private func family(of name: String) -> String? {
        if types[name] != nil { return name }
        for suffix in ["_bucket", "_sum", "_count"] where name.hasSuffix(suffix) {
            let base = String(name.dropLast(suffix.count))
            if types[base] == "histogram" { return base }
        }
        return nil
    }

    private func checkHistograms() throws {
        for (family, type) in types where type == "histogram" {
            var series: [[String: String]: [(le: Double, count: Double)]] = [:]
            for sample in samples where sample.name == family + "_bucket" {
                guard let le = sample.labels["le"].flatMap(Self.number) else { throw Invalid("\(family): a bucket without le") }
                var key = sample.labels
                key["le"] = nil
                series[key, default: []].append((le, sample.value))
            }
            for (labels, buckets) in series {
                guard zip(buckets, buckets.dropFirst()).allSatisfy({ $0.le < $1.le && $0.count <= $1.count }),
                      buckets.last?.le == .infinity,
                      buckets.last?.count == value(family + "_count", labels),
                      value(family + "_sum", labels) != nil
                else { throw Invalid("\(family)\(labels): buckets not cumulative or not matching _count/_sum") }
            }
        }
    }

    private static func match(_ regex: NSRegularExpression, _ line: String) -> [String]? {
        let range = NSRange(line.startIndex..., in: line)
        guard let result = regex.firstMatch(in: line, range: range) else { return nil }
        return (0..<result.numberOfRanges).map { index in
            Range(result.range(at: index), in: line).map { String(line[$0]) } ?? ""
        }
    }

    private static func labels(_ text: String) -> [String: String] {
        var labels: [String: String] = [:]
        let range = NSRange(text.startIndex..., in: text)
        for result in label.matches(in: text, range: range) {
            guard let name = Range(result.range(at: 1), in: text), let value = Range(result.range(at: 2), in: text) else { continue }
            labels[String(text[name])] = String(text[value])
        }
        return labels
    }

    private static func number(_ text: String) -> Double? {
        switch text {
        case "+Inf": .infinity
        case "-Inf": -.infinity
        case "NaN": .nan
        default: Double(text)
        }
    }
}
