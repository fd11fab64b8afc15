import Testing
@testable import rowstream_load

/// The storm's in-place reader (`EventSkimmer`) counts what the full reader (`EventScanner`) parses: the status,
/// the complete events, and those named `rows`, whatever the line ends and wherever the reads split the bytes.
@Suite struct EventSkimmerTests {
    /// What the skimmer counted after reading `bytes` in the pieces `cuts` makes.
    static func skimmed(_ bytes: [UInt8], cuts: [Int]) -> (status: Int?, events: Int, rows: Int) {
        var skimmer = EventSkimmer()
        for piece in pieces(bytes, cuts) { piece.withUnsafeBytes { skimmer.scan($0) } }
        return (skimmer.status, skimmer.events, skimmer.rowsEvents)
    }

    /// What the scanner parsed from the same pieces.
    static func scanned(_ bytes: [UInt8], cuts: [Int]) -> (status: Int?, events: Int, rows: Int) {
        var scanner = EventScanner()
        var events = 0, rows = 0
        for piece in pieces(bytes, cuts) {
            piece.withUnsafeBytes { scanner.append($0) }
            while let event = scanner.next() {
                events += 1
                if event.name == "rows" { rows += 1 }
            }
        }
        return (scanner.status, events, rows)
    }

    static func pieces(_ bytes: [UInt8], _ cuts: [Int]) -> [ArraySlice<UInt8>] {
        var start = 0, out: [ArraySlice<UInt8>] = []
        for cut in cuts.sorted() where cut > start && cut < bytes.count {
            out.append(bytes[start..<cut])
            start = cut
        }
        out.append(bytes[start...])
        return out
    }

    @Test func countsARowstreamStream() {
        let text = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\nretry: 2000\n\n"
            + "event: session\ndata: {}\n\nevent: rows\nid: v1.x\ndata: <tr><td>1</td></tr>\ndata: more\n\n"
            + ": ping\n\nevent:rows\ndata:x\n\nevent: rows\ndata: not yet ended\n"
        let bytes = Array(text.utf8)
        for cuts in [[], [1], [17], [18], [40, 41, 42], Array(0..<bytes.count)] {
            let skim = Self.skimmed(bytes, cuts: cuts)
            #expect(skim.status == 200 && skim.events == 3 && skim.rows == 2, "cuts \(cuts)")
        }
    }

    @Test func readsAStatusLineWithoutAReasonPhrase() {
        let skim = Self.skimmed(Array("HTTP/1.1 204\r\n\r\n".utf8), cuts: [10])
        #expect(skim.status == 204 && skim.events == 0)
        #expect(Self.skimmed(Array("HTTP/1.1 503 Busy\r\n".utf8), cuts: []).status == nil, "the head is not complete")
    }

    @Test func matchesTheScannerOnRandomStreams() {
        var generator = SystemRandomNumberGenerator()
        let fields = ["event: rows", "event:rows", "event: session", "event: row", "event: rowsx", "event:", "data: x",
                      "data:", "data: <tr data-key=\"1\">rows</tr>", "id: 7", ": comment", "retry: 10", "rows: 1",
                      "eventrows", "ev", "data"]
        let ends = ["\n", "\r", "\r\n"]
        for _ in 0..<3_000 {
            var text = "HTTP/1.1 \(Int.random(in: 200...504, using: &generator)) X\r\nA: b\r\n\r\n"
            for _ in 0..<Int.random(in: 0...8, using: &generator) {
                for _ in 0..<Int.random(in: 0...4, using: &generator) {
                    text += fields.randomElement(using: &generator)! + ends.randomElement(using: &generator)!
                }
                text += ends.randomElement(using: &generator)!
            }
            let bytes = Array(text.utf8)
            let cuts = (0..<Int.random(in: 0...6, using: &generator)).map { _ in
                Int.random(in: 0...bytes.count, using: &generator)
            }
            let skim = Self.skimmed(bytes, cuts: cuts), scan = Self.scanned(bytes, cuts: cuts)
            #expect(skim.status == scan.status && skim.events == scan.events && skim.rows == scan.rows,
                    "\(text.debugDescription) cuts \(cuts): skimmed \(skim), scanned \(scan)")
        }
    }
}
