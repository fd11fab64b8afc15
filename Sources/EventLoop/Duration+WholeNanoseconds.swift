extension Duration {
    /// The duration in whole nanoseconds (what is finer is dropped), clamped to `Int64`'s range (past about 292 years).
    /// For the system calls and integer arithmetic that count in nanoseconds. Thread-safe (a value).
    package var wholeNanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        let (total, overflowAdding) = scaled.addingReportingOverflow(attoseconds / 1_000_000_000)
        guard !overflow, !overflowAdding else { return seconds < 0 ? .min : .max }
        return total
    }
}
