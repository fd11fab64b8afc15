/// Writes a Swift string as a quoted JSON string, copying unescaped runs of bytes in bulk.
///
/// Thread-safe: stateless.
enum JSONStringEscaper {
    static func append(_ string: String, to buffer: inout [UInt8], htmlSafe: Bool) {
        buffer.append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { bytes in
            appendEscaped(bytes, to: &buffer, htmlSafe: htmlSafe)
        }
        buffer.append(UInt8(ascii: "\""))
    }

    private static func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>, to buffer: inout [UInt8],
                                      htmlSafe: Bool) {
        var runStart = 0
        var i = 0
        while i < bytes.count {
            let byte = bytes[i]
            var replacement: StaticString? = nil
            var width = 1
            switch byte {
            case UInt8(ascii: "\""): replacement = "\\\""
            case UInt8(ascii: "\\"): replacement = "\\\\"
            case 0x0A: replacement = "\\n"
            case 0x0D: replacement = "\\r"
            case 0x09: replacement = "\\t"
            case 0x08: replacement = "\\b"
            case 0x0C: replacement = "\\f"
            case UInt8(ascii: "<") where htmlSafe: replacement = "\\u003c"
            case UInt8(ascii: ">") where htmlSafe: replacement = "\\u003e"
            case UInt8(ascii: "&") where htmlSafe: replacement = "\\u0026"
            case 0xE2 where htmlSafe && i + 2 < bytes.count && bytes[i + 1] == 0x80
                && (bytes[i + 2] == 0xA8 || bytes[i + 2] == 0xA9):
                replacement = bytes[i + 2] == 0xA8 ? "\\u2028" : "\\u2029"
                width = 3
            default:
                break
            }
            if replacement == nil && byte >= 0x20 {
                i += 1
                continue
            }
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<i]))
            if let replacement {
                buffer.append(contentsOf: UnsafeBufferPointer(start: replacement.utf8Start,
                                                              count: replacement.utf8CodeUnitCount))
            } else {
                appendControlEscape(byte, to: &buffer)
            }
            i += width
            runStart = i
        }
        buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<bytes.count]))
    }

    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    private static func appendControlEscape(_ byte: UInt8, to buffer: inout [UInt8]) {
        buffer.append(contentsOf: "\\u00".utf8)
        buffer.append(hex[Int(byte >> 4)])
        buffer.append(hex[Int(byte & 0xF)])
    }
}
