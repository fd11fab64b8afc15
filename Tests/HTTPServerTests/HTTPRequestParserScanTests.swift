import Testing
@testable import HTTPServer

/// The parser's cost and memory with input arriving in many small reads (issue 13, item 8).
@Suite struct HTTPRequestParserScanTests {
    /// A 24 KB head: an 8 KB request line and 90 header fields of 177 bytes, just in the default limits.
    static let bigHead: [UInt8] = {
        var text = "GET /" + String(repeating: "a", count: 8_000) + " HTTP/1.1\r\nHost: h\r\n"
        for index in 0..<90 { text += "X-Field-\(index): " + String(repeating: "v", count: 163) + "\r\n" }
        return Array((text + "\r\n").utf8)
    }()

    /// Feeds `bytes` one at a time, asking for a request after each (as a connection does after each read).
    func feedByteByByte(_ bytes: [UInt8], into parser: inout HTTPRequestParser) throws -> [HTTPRequest] {
        var requests: [HTTPRequest] = []
        for byte in bytes {
            parser.append([byte])
            while let request = try parser.next() { requests.append(request) }
        }
        return requests
    }

    @Test func aHeadFedByteByByteIsScannedOnce() throws {
        let head = Self.bigHead
        #expect(head.count > 23_800)
        var parser = HTTPRequestParser()
        let requests = try feedByteByByte(head, into: &parser)
        #expect(requests.count == 1)
        #expect(requests.first?.headers.count == 91)
        #expect(requests.first?.path.utf8.count == 8_001)
        // Each byte is looked at once while searching for line ends: O(n). Rescanning the head on every read
        // looked at about n²/2 bytes (some 300 million here).
        #expect(parser.scannedByteCount <= head.count)
    }

    @Test func oneLongHeaderLineFedByteByByteIsScannedOnce() throws {
        let text = "POST /a HTTP/1.1\r\nHost: h\r\nX-Long: " + String(repeating: "z", count: 15_000)
            + "\r\nContent-Length: 3\r\n\r\nabc"
        var parser = HTTPRequestParser()
        let requests = try feedByteByByte(Array(text.utf8), into: &parser)
        #expect(requests.count == 1)
        #expect(requests.first?.body == Array("abc".utf8))
        #expect(parser.scannedByteCount <= text.utf8.count)
        #expect(parser.bufferedByteCount == 0)
    }

    @Test func byteByByteAndWholeGiveTheSameRequestsAndRefusals() throws {
        let inputs = [
            "\r\n\r\nGET /a HTTP/1.1\r\nHost: h\r\n\r\nPOST /b HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\n\r\nhi",
            "\r\nGET /a HTTP/1.1\r\nHost: h\r\nX: 1\nY: 2\r\n\r\n",      // bare LF in a field
            "GET /a HTTP/1.1\r\nHost: h\r\n\r\n\nGET /b HTTP/1.1\r\n\r\n",  // bare LF before the next request
            "GET /a HTTP/1.1\r\nHost: h\r\nX-Long: " + String(repeating: "q", count: 17_000) + "\r\n\r\n",  // 431
        ]
        for input in inputs {
            let bytes = Array(input.utf8)
            #expect(outcome(of: [bytes[...]]) == outcome(of: bytes.indices.map { bytes[$0...$0] }))
        }
    }

    /// The targets parsed from `pieces` (appended one by one) and the refusal that ended them, if any.
    func outcome(of pieces: [ArraySlice<UInt8>]) -> [String] {
        var parser = HTTPRequestParser()
        var result: [String] = []
        do {
            for piece in pieces {
                parser.append(piece)
                while let request = try parser.next() { result.append(request.target) }
            }
        } catch {
            result.append("refused \(error.status.code)")
        }
        return result
    }

    @Test func emptyLinesBeforeARequestHoldNoMemory() throws {
        var parser = HTTPRequestParser()
        let crlfs = Array(String(repeating: "\r\n", count: 32 * 1024).utf8)
        for _ in 0..<32 {  // 2 MiB of CRLF, in 64 KiB reads
            parser.append(crlfs)
            #expect(try parser.next() == nil)
        }
        #expect(parser.bufferedByteCount == 0)
        #expect(parser.storedByteCount == 0)
        parser.append(Array("GET / HTTP/1.1\r\nHost: h\r\n\r\n".utf8))
        #expect(try parser.next()?.path == "/")
    }
}
