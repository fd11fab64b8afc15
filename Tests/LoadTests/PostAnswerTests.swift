import Testing
@testable import rowstream_load

/// A POST's answer, as the soak judges it. Its status is read by the same `EventScanner` as a stream's, which reads
/// the status line only when asked for the next event: the load client asks once (it never asked before, so no
/// POST's status was ever checked). `202` is done; `204` means the session had ended first (counted apart, not a
/// violation); anything else is a violation.
@Suite struct PostAnswerTests {
    @Test(arguments: [202, 204, 404, 503])
    func theStatusOfAnAnswerWithoutEventsIsRead(_ code: Int) {
        var scanner = EventScanner()
        let head = "HTTP/1.1 \(code) Whatever\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        Array(head.utf8).withUnsafeBytes { scanner.append($0) }
        #expect(scanner.status == nil)  // not read until asked
        #expect(scanner.next() == nil)  // no event in it
        #expect(scanner.status == code)
    }

    @Test func acceptedAndEndedPassAndEverythingElseIsAViolation() {
        var stats = LoadStatistics()
        for status in [202, 204, 202, 404, 503, 204] { stats.countPostAnswer(status) }
        #expect(stats.endedPosts == 2)
        #expect(stats.unexpectedStatuses == 2 && stats.unexpected == [404: 1, 503: 1])
        #expect(stats.violations == 2)
    }
}
