@testable import Dashboard
import Testing

/// What a hostile Redis may make happen on every request (a value that does not verify) is logged once a minute at
/// most, not once per request.
@Suite struct RateLimitedLogTests {
    @Test func oneLineAMinuteAtMost() {
        let lines = RecordingLogger()
        let log = RateLimitedLog(logger: lines, every: .seconds(60))
        for index in 0..<100 { log.log(.warning, "unverified \(index)") }
        #expect(lines.lines(containing: "unverified") == ["unverified 0"])
        let eager = RateLimitedLog(logger: lines, every: .zero)
        eager.log(.warning, "eager 1")
        eager.log(.warning, "eager 2")
        #expect(lines.lines(containing: "eager").count == 2, "a zero interval logs each")
    }
}
