/// Name rules of the Prometheus data model, checked when a metric is registered.
///
/// A bad name is a programmer error (names are literals in the code), so registration calls
/// `precondition` rather than returning an error. Thread-safe: pure functions.
enum MetricName {
    /// `[a-zA-Z_:][a-zA-Z0-9_:]*`
    static func isValidMetricName(_ name: String) -> Bool {
        isValid(name, allowColon: true)
    }

    /// `[a-zA-Z_][a-zA-Z0-9_]*`, and not starting with the reserved `__`.
    static func isValidLabelName(_ name: String) -> Bool {
        isValid(name, allowColon: false) && !name.hasPrefix("__")
    }

    private static func isValid(_ name: String, allowColon: Bool) -> Bool {
        guard let first = name.utf8.first else { return false }
        guard isLetter(first) || first == UInt8(ascii: "_") || (allowColon && first == UInt8(ascii: ":")) else {
            return false
        }
        return name.utf8.dropFirst().allSatisfy { byte in
            isLetter(byte) || isDigit(byte) || byte == UInt8(ascii: "_") || (allowColon && byte == UInt8(ascii: ":"))
        }
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
