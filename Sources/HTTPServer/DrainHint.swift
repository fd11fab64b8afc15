/// What a draining server writes to each open event stream before closing it: a `retry:` field of its own, a
/// random whole number of milliseconds in 1...window, so the stream's viewers reconnect (to another instance: the
/// listener is already closed) spread over the window instead of all at the same moment. The field stands alone
/// (no `data:`), so a browser takes the new reconnection time and dispatches no event.
///
/// Thread-safe: no state (the system random generator).
enum DrainHint {
    /// `retry: N` and a blank line, or nil for a zero window (the stream's own `retry:` then stands).
    static func retryField(window: Duration) -> [UInt8]? {
        let (seconds, attoseconds) = window.components
        let milliseconds = Int(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000)
        guard milliseconds >= 1 else { return nil }
        return Array("retry: \(Int.random(in: 1...milliseconds))\n\n".utf8)
    }
}
