extension JSONParser {
    /// Parses a string starting at its opening quote. The fast path slices the bytes straight into a
    /// `String`; only strings with escapes are copied into a scratch buffer.
    mutating func parseString() throws(JSONError) -> String {
        try scanString(building: true)
    }

    /// Checks a string starting at its opening quote exactly as `parseString` does, making no `String`.
    mutating func skipString() throws(JSONError) {
        _ = try scanString(building: false)
    }

    /// `parseString` when `building`; else the same checks, returning "".
    @inline(__always)
    private mutating func scanString(building: Bool) throws(JSONError) -> String {
        position += 1  // opening quote
        let start = position
        var scratch: [UInt8]? = nil
        var runStart = start

        while true {
            guard position < bytes.count else { throw error(.unexpectedEnd, "'\"' to close the string") }
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                let run = UnsafeBufferPointer(rebasing: bytes[runStart..<position])
                position += 1
                guard building else { return "" }
                guard var buffer = scratch else { return String(decoding: run, as: UTF8.self) }
                buffer.append(contentsOf: run)
                return String(decoding: buffer, as: UTF8.self)
            } else if byte == UInt8(ascii: "\\") {
                if scratch == nil { scratch = []; scratch!.reserveCapacity(position - start + 16) }
                scratch!.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<position]))
                try parseEscape(into: &scratch!)
                runStart = position
            } else if byte < 0x20 {
                throw error(.controlCharacterInString, "no unescaped control character in a string")
            } else if byte < 0x80 {
                position += 1
            } else {
                try skipUTF8Sequence()
            }
        }
    }

    /// Validates one multi-byte UTF-8 sequence (no overlongs, no surrogates, at most U+10FFFF).
    private mutating func skipUTF8Sequence() throws(JSONError) {
        let lead = bytes[position]
        let length: Int
        var low: UInt8 = 0x80, high: UInt8 = 0xBF  // allowed range of the second byte
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; high = 0x9F
        case 0xF0: length = 4; low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F
        default: throw error(.invalidUTF8, "valid UTF-8")
        }
        guard position + length <= bytes.count else { throw error(.invalidUTF8, "valid UTF-8") }
        let second = bytes[position + 1]
        guard second >= low && second <= high else { throw error(.invalidUTF8, "valid UTF-8") }
        for i in 2..<max(length, 2) where bytes[position + i] & 0xC0 != 0x80 {
            throw error(.invalidUTF8, "valid UTF-8")
        }
        position += length
    }

    /// Decodes one escape at `position` (the backslash) and appends its UTF-8.
    private mutating func parseEscape(into buffer: inout [UInt8]) throws(JSONError) {
        position += 1
        guard let code = peek() else { throw error(.unexpectedEnd, "an escape character") }
        position += 1
        switch code {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): buffer.append(code)
        case UInt8(ascii: "b"): buffer.append(0x08)
        case UInt8(ascii: "f"): buffer.append(0x0C)
        case UInt8(ascii: "n"): buffer.append(0x0A)
        case UInt8(ascii: "r"): buffer.append(0x0D)
        case UInt8(ascii: "t"): buffer.append(0x09)
        case UInt8(ascii: "u"): try parseUnicodeEscape(into: &buffer)
        default:
            position -= 1
            throw error(.invalidEscape, "one of \" \\ / b f n r t u after '\\'")
        }
    }

    /// Decodes `XXXX` after `\u`, pairing surrogates; an unpaired surrogate is an error.
    private mutating func parseUnicodeEscape(into buffer: inout [UInt8]) throws(JSONError) {
        let escapeStart = position - 2
        var scalar = UInt32(try parseHex4())
        if scalar >= 0xD800 && scalar <= 0xDBFF {
            guard position + 1 < bytes.count,
                  bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") else {
                throw JSONError(.unpairedSurrogate, at: escapeStart, expected: "a low surrogate escape")
            }
            position += 2
            let low = UInt32(try parseHex4())
            guard low >= 0xDC00 && low <= 0xDFFF else {
                throw JSONError(.unpairedSurrogate, at: escapeStart, expected: "a low surrogate escape")
            }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        } else if scalar >= 0xDC00 && scalar <= 0xDFFF {
            throw JSONError(.unpairedSurrogate, at: escapeStart, expected: "a high surrogate first")
        }
        appendUTF8(scalar, to: &buffer)
    }

    private mutating func parseHex4() throws(JSONError) -> UInt16 {
        var value: UInt16 = 0
        for _ in 0..<4 {
            guard let byte = peek() else { throw error(.unexpectedEnd, "4 hex digits") }
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - 0x30
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - 0x61 + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - 0x41 + 10
            default: throw error(.invalidUnicodeEscape, "4 hex digits")
            }
            value = value << 4 | UInt16(digit)
            position += 1
        }
        return value
    }
}

/// Appends the UTF-8 encoding of a valid scalar value.
func appendUTF8(_ scalar: UInt32, to buffer: inout [UInt8]) {
    switch scalar {
    case 0..<0x80:
        buffer.append(UInt8(scalar))
    case 0x80..<0x800:
        buffer.append(UInt8(0xC0 | scalar >> 6))
        buffer.append(UInt8(0x80 | scalar & 0x3F))
    case 0x800..<0x10000:
        buffer.append(UInt8(0xE0 | scalar >> 12))
        buffer.append(UInt8(0x80 | scalar >> 6 & 0x3F))
        buffer.append(UInt8(0x80 | scalar & 0x3F))
    default:
        buffer.append(UInt8(0xF0 | scalar >> 18))
        buffer.append(UInt8(0x80 | scalar >> 12 & 0x3F))
        buffer.append(UInt8(0x80 | scalar >> 6 & 0x3F))
        buffer.append(UInt8(0x80 | scalar & 0x3F))
    }
}
