import Testing
@testable import HTTPServer

@Suite struct SSEEventTests {
    func text(_ event: SSEEvent) -> String { String(decoding: event.encoded(), as: UTF8.self) }

    @Test func encodesAllFieldsAndEndsWithABlankLine() {
        let event = SSEEvent(event: "rows", id: "t-7", data: "<tr></tr>", retry: 1500)
        #expect(text(event) == "event: rows\nid: t-7\nretry: 1500\ndata: <tr></tr>\n\n")
    }

    @Test func splitsDataOnEveryLineEnding() {
        #expect(text(SSEEvent(data: "a\nb\r\nc\rd")) == "data: a\ndata: b\ndata: c\ndata: d\n\n")
        #expect(text(SSEEvent(data: "end\n")) == "data: end\ndata: \n\n")
        #expect(text(SSEEvent(data: "")) == "data: \n\n")
        #expect(text(SSEEvent(data: "\r\n\r\n")) == "data: \ndata: \ndata: \n\n")
    }

    @Test func dataGivenAsBytesEncodesAsTheSameText() {
        for data in ["a\nb\r\nc\rd", "end\n", "", "<tr data-key=\"Zürich\"></tr>"] {
            let bytes = SSEEvent(event: "rows", id: "1", dataBytes: Array(data.utf8))
            #expect(bytes.encoded() == SSEEvent(event: "rows", id: "1", data: data).encoded())
            #expect(bytes.data == data)
        }
    }

    @Test func stripsLineBreaksAndNulFromEventAndID() {
        let event = SSEEvent(event: "ro\nws\r", id: "a\r\nb\0c", data: "x")
        #expect(text(event) == "event: rows\nid: abc\ndata: x\n\n")
    }

    @Test func omitsEmptyEventNameAndNegativeRetry() {
        #expect(text(SSEEvent(event: "\n", data: "x", retry: -1)) == "data: x\n\n")
    }

    @Test func encodeIntoAppends() {
        var buffer = Array("prefix".utf8)
        SSEEvent(data: "x").encode(into: &buffer)
        #expect(String(decoding: buffer, as: UTF8.self) == "prefixdata: x\n\n")
    }

    @Test func commentsAreOneLineEach() {
        #expect(String(decoding: SSEEvent.comment("ping"), as: UTF8.self) == ": ping\n\n")
        #expect(String(decoding: SSEEvent.comment("a\nb"), as: UTF8.self) == ": a\n: b\n\n")
    }
}

@Suite struct StreamWriterTests {
    final class Box: @unchecked Sendable {
        var outputs: [String] = []
        var closes = 0
    }

    @Test func writesUntilFinishAndClosesExactlyOnce() {
        let box = Box()
        let writer = StreamWriter { output in
            switch output {
            case .bytes(let bytes): box.outputs.append(String(decoding: bytes, as: UTF8.self))
            case .finish: box.outputs.append("<finish>")
            }
        }
        writer.onClose { box.closes += 1 }
        writer.send(SSEEvent(data: "a"))
        #expect(writer.isOpen)
        writer.finish()
        writer.finish()
        writer.write(Array("late".utf8))
        writer.close()
        #expect(!writer.isOpen)
        #expect(box.outputs == ["data: a\n\n", "<finish>"])
        #expect(box.closes == 1)
        writer.onClose { box.closes += 10 }
        #expect(box.closes == 11)
    }

    @Test func closeCallbacksRunOnceEachInTheOrderGiven() {
        let box = Box()
        let writer = StreamWriter { _ in }
        for index in 1...3 { writer.onClose { box.outputs.append("close \(index)") } }
        writer.close()
        writer.close()
        #expect(box.outputs == ["close 1", "close 2", "close 3"])
        let lone = StreamWriter { _ in }
        lone.onClose { box.closes += 1 }
        lone.close()
        lone.close()
        #expect(box.closes == 1)
    }

    @Test func eventStreamResponseWritesRetryFirst() {
        let box = Box()
        let response = HTTPResponse.eventStream(retryMilliseconds: 1234) { writer in writer.send(SSEEvent(data: "x")) }
        #expect(response.headers["Content-Type"] == "text/event-stream")
        #expect(response.headers["Cache-Control"] == "no-cache")
        #expect(response.headers["X-Accel-Buffering"] == "no")
        guard case .stream(let open) = response.body else {
            Issue.record("not a stream")
            return
        }
        open(StreamWriter { if case .bytes(let b) = $0 { box.outputs.append(String(decoding: b, as: UTF8.self)) } })
        #expect(box.outputs == ["retry: 1234\n\n", "data: x\n\n"])
    }
}
