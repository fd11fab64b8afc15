/// Pieces of the Prometheus text exposition format 0.0.4: escaping and number formatting.
///
/// Thread-safe: pure functions.
enum PrometheusText {
    /// Escapes a label value: backslash, double quote and line feed become `\\`, `\"` and `\n`.
    static func escapeLabelValue(_ value: String) -> String {
        escape(value, quotes: true)
    }

    /// Escapes `# HELP` text: backslash and line feed become `\\` and `\n` (quotes stay as they are).
    static func escapeHelp(_ help: String) -> String {
        escape(help, quotes: false)
    }

    /// Formats a sample value: integral values without a fraction (`3`), others in Swift's shortest
    /// round-trip form (`0.005`, `1e-05`), and `+Inf`, `-Inf`, `NaN` as Prometheus spells them.
    static func format(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }

    /// Renders `{a="1",b="2"}` for sorted label pairs, or nothing when there are none.
    static func labelBlock(_ labels: [(name: String, value: String)]) -> String {
        if labels.isEmpty { return "" }
        let body = labels.map { "\($0.name)=\"\(escapeLabelValue($0.value))\"" }.joined(separator: ",")
        return "{\(body)}"
    }

    private static func escape(_ text: String, quotes: Bool) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\"" where quotes: out += "\\\""
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
