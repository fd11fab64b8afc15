import Testing
@testable import rowstream_load

/// The load client's gzip reader (`GzipBody`) hands on each write of a Rowstream gzip stream as soon as it is whole,
/// as a browser's inflater does: a stored block (the server's short writes) and compressed blocks ended by a sync
/// flush, wherever the reads split them.
@Suite struct GzipBodyTests {
    static let head = Array("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Encoding: gzip\r\n\r\n".utf8)
    static let gzipHeader: [UInt8] = [0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0x03]

    /// A non-final stored block of `text` (RFC 1951 §3.2.4), as the server writes one of at most 64 bytes.
    static func stored(_ text: String) -> [UInt8] {
        let bytes = Array(text.utf8)
        let length = UInt16(bytes.count)
        return [0, UInt8(length & 0xff), UInt8(length >> 8), UInt8(~length & 0xff), UInt8(~length >> 8)] + bytes
    }

    /// `compressedText` deflated and ended by a sync flush (zlib, raw deflate, level 6).
    static let compressedText = "event: rows\nid: v1.x\ndata: <tr><td>1</td><td>Ada Lovelace</td></tr>\n\n"
    static let compressed: [UInt8] = [
        0x4a, 0x2d, 0x4b, 0xcd, 0x2b, 0xb1, 0x52, 0x28, 0xca, 0x2f, 0x2f, 0xe6, 0xca, 0x4c, 0xb1, 0x52, 0x28, 0x33,
        0xd4, 0xab, 0xe0, 0x4a, 0x49, 0x2c, 0x49, 0xb4, 0x52, 0xb0, 0x29, 0x29, 0xb2, 0xb3, 0x29, 0x49, 0xb1, 0x33,
        0xb4, 0xd1, 0x07, 0x92, 0x20, 0x96, 0x63, 0x4a, 0xa2, 0x82, 0x4f, 0x7e, 0x59, 0x6a, 0x4e, 0x62, 0x72, 0x2a,
        0x44, 0x50, 0x1f, 0xa8, 0x86, 0x8b, 0x0b, 0x00, 0x00, 0x00, 0xff, 0xff,
    ]

    /// The events an `EventScanner` parses from what `GzipBody` decodes of `bytes`, read in the pieces `cuts` makes.
    static func events(_ bytes: [UInt8], cuts: [Int]) -> (status: Int?, names: [String], failures: Int) {
        var body = GzipBody()
        var scanner = EventScanner()
        let inflater = BlockInflater()
        var names: [String] = []
        for piece in EventSkimmerTests.pieces(bytes, cuts) {
            piece.withUnsafeBytes { read in body.decode(read, with: inflater) { scanner.append($0) } }
            while let event = scanner.next() { names.append(event.name) }
        }
        return (scanner.status, names, inflater.failures)
    }

    @Test("a write that is one stored block, with nothing after it, is read at once (a resumed stream's session)")
    func aLastStoredBlockIsReadAtOnce() {
        let stream = Self.head + Self.gzipHeader + Self.stored("retry: 2000\n\n") + Self.stored("event: session\n")
            + Self.stored("data: {\"next\":\"/n\"}\n\n")
        let read = Self.events(stream, cuts: [])
        #expect(read.status == 200)
        #expect(read.names == ["session"])
        #expect(read.failures == 0)
    }

    @Test("stored and compressed writes, split anywhere: every event, in order, once")
    func storedAndCompressedWritesSplitAnywhere() {
        let stream = Self.head + Self.gzipHeader + Self.stored("retry: 2000\n\n") + Self.stored("event: session\n")
            + Self.stored("data: {}\n\n") + Self.compressed + Self.stored("event: heartbeat\ndata: {}\n\n")
        for cut in 0...stream.count {
            let read = Self.events(stream, cuts: [cut])
            #expect(read.names == ["session", "rows", "heartbeat"], "cut at \(cut)")
            #expect(read.failures == 0, "cut at \(cut)")
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            let cuts = (0..<Int.random(in: 1...12, using: &generator)).map { _ in
                Int.random(in: 0...stream.count, using: &generator)
            }
            #expect(Self.events(stream, cuts: cuts).names == ["session", "rows", "heartbeat"], "cuts \(cuts)")
        }
    }
}
