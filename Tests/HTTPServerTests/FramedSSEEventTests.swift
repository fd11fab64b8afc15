import Testing
@testable import HTTPServer

@Suite struct FramedSSEEventTests {
    @Test func aFramedEventIsTheEncodedEventByteForByte() {
        for data in ["a\nb\r\nc\rd", "end\n", "", "\r\n\r\n", "<tr data-key=\"Zürich\"></tr>"] {
            let event = SSEEvent(event: "rows", id: "t-1", data: data, retry: 1500)
            #expect(FramedSSEEvent(event).bytes == event.encoded())
        }
    }

    @Test func dataWrittenWithTheDataLineBreakFramesAsTheEncoderSplits() {
        let framed = FramedSSEEvent(event: "rows", id: "7") { data in
            data += Array("<td>a".utf8)
            data += Array(UnsafeBufferPointer(start: SSEEvent.dataLineBreak.utf8Start,
                                              count: SSEEvent.dataLineBreak.utf8CodeUnitCount))
            data += Array("b</td>".utf8)
        }
        #expect(framed.bytes == SSEEvent(event: "rows", id: "7", data: "<td>a\nb</td>").encoded())
        #expect(String(decoding: framed.bytes, as: UTF8.self) == "event: rows\nid: 7\ndata: <td>a\ndata: b</td>\n\n")
    }

    @Test func retaggingKeepsTheDataLinesAndReplacesTheHead() {
        let framed = FramedSSEEvent(SSEEvent(event: "rows", id: "own", data: "x\ny", retry: 10))
        #expect(framed.retagged(event: "t:rows", id: "page").bytes
                == SSEEvent(event: "t:rows", id: "page", data: "x\ny").encoded())
        #expect(framed.retagged(event: "t:rows", id: nil).bytes == SSEEvent(event: "t:rows", data: "x\ny").encoded())
    }

    @Test func appendWritesEventsBackToBack() {
        var buffer: [UInt8] = []
        FramedSSEEvent.append(event: "update", to: &buffer) { $0 += Array("a".utf8) }
        FramedSSEEvent.append(event: "insert", to: &buffer) { $0 += Array("b".utf8) }
        #expect(buffer == SSEEvent(event: "update", data: "a").encoded() + SSEEvent(event: "insert", data: "b").encoded())
    }
}
