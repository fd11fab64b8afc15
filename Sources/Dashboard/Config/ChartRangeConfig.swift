import Tables

/// A bar column's `"range": {"min": 0, "max": 10000}` (docs/CONFIG.md "Bars, sparklines, progress"): the values at an
/// empty and at a full bar. Only bar columns take one; without it each batch's bars scale to that batch's values.
///
/// Pure parsing on the config thread; nothing shared.
enum ChartRangeConfig {
    /// The column's range, if it has one (a bar column's only).
    static func range(in reader: inout ConfigReader, format: ColumnFormat) throws(ConfigError) -> ClosedRange<Double>? {
        guard var range = try reader.object("range") else { return nil }
        guard format == .bar else {
            throw reader.error("range", "only for a column of format bar (progress is always 0 to 1)")
        }
        let low = try bound("min", in: &range), high = try bound("max", in: &range)
        try range.finish()
        guard low < high else { throw range.error("max", "a number greater than min (\(low))") }
        return low...high
    }

    private static func bound(_ key: String, in reader: inout ConfigReader) throws(ConfigError) -> Double {
        guard let number = reader.value(key)?.doubleValue, number.isFinite else {
            throw reader.error(key, "a number (the range is {\"min\": N, \"max\": M})")
        }
        return number
    }
}
