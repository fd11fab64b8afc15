import Testing
@testable import rowstream_load

/// A POST's answer is read by the same `EventScanner` as a stream, which reads the status line only when asked for
/// the next event: the load client asks once, so a `204` (the session had ended) or any other status is seen. It
/// never asked before, and no POST's status was ever checked.
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
}
