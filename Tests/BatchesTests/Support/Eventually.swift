/// A bounded wait failed: the condition never became true.
struct TimedOut: Error, CustomStringConvertible {
    let what: String
    var description: String { "timed out waiting for \(what)" }
}

/// Waits until `condition` holds, checking often; throws ``TimedOut`` after `timeout` so no test hangs.
/// The bound is a safety net, not a measurement: tests never assert on how long anything took.
func eventually(
    _ what: String, timeout: Duration = .seconds(10), _ condition: @Sendable () -> Bool
) async throws {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        guard ContinuousClock.now < deadline else { throw TimedOut(what: what) }
        try await Task.sleep(for: .milliseconds(1))
    }
}
