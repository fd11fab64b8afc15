import JSON

/// Same-run references for the rendering figure (issue 17 part 5: this machine's speed differs between sessions,
/// so cells/s alone cannot hold a target): a plain escape loop over the same cells' text, as C would write it (one
/// byte at a time through raw pointers, the five HTML specials replaced, no formatting, no markup), and `memcpy`
/// of the renderer's output. The renderer's rate over these is a ratio that holds on any machine.
enum Reference {
    /// Each cell's text as the renderer reads it (a string's UTF-8, a number's decimal digits), item by item, in
    /// column order.
    static func cellTexts(_ items: [JSONValue], fields: [String]) -> [[UInt8]] {
        items.flatMap { item in
            fields.map { field -> [UInt8] in
                switch item[field] {
                case .string(let text)?: Array(text.utf8)
                case .int(let number)?: Array(String(number).utf8)
                default: []
                }
            }
        }
    }

    /// Escapes every cell into `out` (room for 6 bytes per input byte); returns the bytes written.
    static func escape(_ cells: [[UInt8]], into out: UnsafeMutablePointer<UInt8>) -> Int {
        var written = 0
        for cell in cells {
            cell.withUnsafeBufferPointer { input in
                for byte in input {
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
            }
        }
        return written
    }

    private static func put(_ entity: StaticString, at out: UnsafeMutablePointer<UInt8>) -> Int {
        out.update(from: entity.utf8Start, count: entity.utf8CodeUnitCount)
        return entity.utf8CodeUnitCount
    }
}
