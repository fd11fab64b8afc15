import Foundation
import Testing

/// The renderer's exact bytes over hostile and edge input, against Tests/Golden/rendered-rows.html: what the renderer
/// wrote at fdb2f23, before its row and cell loop was rewritten for speed (issue 17 part 5). Every format meets every
/// value (astral characters, CR/LF/CRLF, the five HTML specials, NUL and other controls, invalid dates, negative,
/// huge and decimal numbers, unsafe links), in plain, framed (`\ndata: ` line breaks, row ids), live (no index),
/// sectioned and grid tables. A speed change must not change one byte; a deliberate output change rewrites the
/// file from the renderer it was checked against (the failing run leaves its bytes in the temporary directory).
@Suite struct RenderedBytesTests {
    static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Golden/rendered-rows.html")

    @Test func rowsAreByteForByteTheGoldenFile() throws {
        let actual = RenderedBytesCases.render()
        let expected = try [UInt8](Data(contentsOf: Self.golden))
        guard actual != expected else { return }
        let written = FileManager.default.temporaryDirectory.appendingPathComponent("rendered-rows.actual.html")
        try Data(actual).write(to: written)
        let first = zip(actual, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            ?? min(actual.count, expected.count)
        func around(_ bytes: [UInt8]) -> String {
            String(decoding: bytes[max(0, first - 80)..<min(bytes.count, first + 80)], as: UTF8.self)
        }
        Issue.record("""
            rendered bytes differ from \(Self.golden.lastPathComponent) at byte \(first) \
            (\(actual.count) vs \(expected.count) bytes; actual bytes in \(written.path))
            expected: \(around(expected))
            actual:   \(around(actual))
            """)
    }

    /// The file holds what its cases claim: every format's markup, every kind of escape.
    @Test func theGoldenFileCoversEachCase() throws {
        let text = String(decoding: try Data(contentsOf: Self.golden), as: UTF8.self)
        for needle in ["&amp;", "&lt;", "&gt;", "&quot;", "&#39;", "\u{FFFD}", "😀", "𝄞", "\ndata: ", "<time datetime=",
                       "rel=\"noopener noreferrer nofollow\"", "rs-badge-", "-9,223,372,036,854,775,808", "1,234.50",
                       "123,456,789,012,345,678,901", "data-section=", "rs-card-media", "id=\"rs-", "<img src="] {
            #expect(text.contains(needle), "\(needle)")
        }
        #expect(!text.utf8.contains(0) && !text.utf8.contains(0x0D))
    }
}
