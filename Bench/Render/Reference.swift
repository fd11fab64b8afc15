import JSON

/// Same-run references for the rendering figure (issue 17 part 5: this machine's speed differs between sessions,
/// so cells/s alone cannot hold a target): a plain escape loop over the same cells' text, as C would write it (one
/// byte at a time through raw pointers, the five HTML specials replaced, no formatting, no markup), and `memcpy`
/// of the renderer's output. The renderer's rate over these is a ratio that holds on any machine.
enum Reference {
    /// Every cell's text in one flat buffer, as a C program would hold it: the bytes, and where each cell ends.
    /// (An array per cell would make the loop retain and release each one, about half its time in `perf`: a
    /// reference slowed by bookkeeping the renderer does not do would flatter the ratio.)
    struct CellTexts {
        let bytes: [UInt8]
        /// Cell `i` is `bytes[ends[i - 1] ..< ends[i]]` (from 0 for the first).
        let ends: [Int]
    }

    /// Each cell's text as the renderer reads it (a string's UTF-8, a number's decimal digits), item by item, in
    /// column order.
    static func cellTexts(_ items: [JSONValue], fields: [String]) -> CellTexts {
        var bytes: [UInt8] = []
        var ends: [Int] = []
        for item in items {
            for field in fields {
                switch item[field] {
                case .string(let text)?: bytes.append(contentsOf: text.utf8)
                case .int(let number)?: bytes.append(contentsOf: String(number).utf8)
                default: break
                }
                ends.append(bytes.count)
            }
        }
        return CellTexts(bytes: bytes, ends: ends)
    }

    /// Escapes every cell into `out` (room for 6 bytes per input byte); returns the bytes written.
    static func escape(_ cells: CellTexts, into out: UnsafeMutablePointer<UInt8>) -> Int {
        var written = 0
        cells.bytes.withUnsafeBufferPointer { bytes in
            cells.ends.withUnsafeBufferPointer { ends in
                var start = 0
                for end in ends {
                    for index in start ..< end {
                        let byte = bytes[index]
                        switch byte {
                        case UInt8(ascii: "&"): written += put("&amp;", at: out + written)
                        case UInt8(ascii: "<"): written += put("&lt;", at: out + written)
                        case UInt8(ascii: ">"): written += put("&gt;", at: out + written)
                        case UInt8(ascii: "\""): written += put("&quot;", at: out + written)
                        case UInt8(ascii: "'"): written += put("&#39;", at: out + written)
                        default:
                            out[written] = byte
                            written += 1
                        }
                    }
                    start = end
                }
            }
        }
        return written
    }

    private static func put(_ entity: StaticString, at out: UnsafeMutablePointer<UInt8>) -> Int {
        out.update(from: entity.utf8Start, count: entity.utf8CodeUnitCount)
        return entity.utf8CodeUnitCount
    }
}
