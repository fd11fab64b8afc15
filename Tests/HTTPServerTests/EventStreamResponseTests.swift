import Synchronization
import Testing
@testable import HTTPServer

/// `HTTPResponse.eventStream`: its headers and default `retry:` field are built once and shared, and whether a response
/// is an event stream is read from its content type without a lowercased copy (`isEventStream`).
@Suite struct EventStreamResponseTests {
    @Test func anEventStreamIsToldByItsContentTypeInAnyCase() {
        func stream(_ type: String) -> HTTPResponse {
            HTTPResponse(status: .ok, headers: [HTTPFieldName.contentType: type], body: .stream { _ in })
        }
        #expect(HTTPResponse.eventStream { _ in }.isEventStream)
        #expect(stream("Text/Event-Stream; charset=utf-8").isEventStream)
        #expect(stream("TEXT/EVENT-STREAM").isEventStream)
        #expect(!stream("text/event-strea").isEventStream, "shorter than the type")
        #expect(!stream("text/html").isEventStream)
        // A control byte that only the case bit tells from "/" (0x0f | 0x20 == 0x2f) is not "/".
        #expect(!stream("text\u{0f}event-stream").isEventStream)
        #expect(!HTTPResponse(status: .ok, headers: [HTTPFieldName.contentType: "text/event-stream"],
                              body: .bytes([])).isEventStream, "not a stream body")
    }

    @Test func theRetryFieldComesFirstWithTheDefaultOrTheGivenDelay() {
        for (milliseconds, expected) in [(2000, "retry: 2000\n\n"), (500, "retry: 500\n\n"), (-1, "retry: 0\n\n")] {
            let written = Mutex<[String]>([])
            let writer = StreamWriter { output in
                if case .bytes(let bytes) = output { written.withLock { $0.append(String(decoding: bytes, as: UTF8.self)) } }
            }
            let response = HTTPResponse.eventStream(retryMilliseconds: milliseconds) { writer in
                writer.write(Array("data: x\n\n".utf8))
            }
            guard case .stream(let open) = response.body else { Issue.record("not a stream"); continue }
            open(writer)
            #expect(written.withLock { $0 } == [expected, "data: x\n\n"])
            #expect(response.headers[HTTPFieldName.cacheControl] == "no-cache")
            #expect(response.headers[HTTPFieldName.xAccelBuffering] == "no")
        }
    }
}
