extension JSONValue {
    /// Compact serialization (no whitespace), object keys sorted so the output is deterministic.
    ///
    /// `htmlSafe: true` also escapes `<`, `>`, `&`, U+2028 and U+2029 as `\uXXXX`, so the output can be
    /// embedded in HTML `<script>` or attributes. Non-finite doubles (which JSON cannot express) are
    /// written as `null`.
    ///
    /// Thread-safe: pure function.
    public func serialized(htmlSafe: Bool = false) -> [UInt8] {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(64)
        serialize(into: &buffer, htmlSafe: htmlSafe)
        return buffer
    }

    /// Appends the compact serialization to `buffer`; see `serialized(htmlSafe:)`.
    public func serialize(into buffer: inout [UInt8], htmlSafe: Bool = false) {
        switch self {
        case .null:
            buffer.append(contentsOf: "null".utf8)
        case .bool(let b):
            buffer.append(contentsOf: (b ? "true" : "false").utf8)
        case .int(let i):
            appendDecimal(i, to: &buffer)
        case .double(let d):
            if d.isFinite {
                buffer.append(contentsOf: d.description.utf8)
            } else {
                buffer.append(contentsOf: "null".utf8)
            }
        case .bigInteger(let text):
            buffer.append(contentsOf: text.utf8)
        case .string(let s):
            JSONStringEscaper.append(s, to: &buffer, htmlSafe: htmlSafe)
        case .array(let elements):
            buffer.append(UInt8(ascii: "["))
            for (i, element) in elements.enumerated() {
                if i > 0 { buffer.append(UInt8(ascii: ",")) }
                element.serialize(into: &buffer, htmlSafe: htmlSafe)
            }
            buffer.append(UInt8(ascii: "]"))
        case .object(let members):
            buffer.append(UInt8(ascii: "{"))
            for (i, key) in members.keys.sorted().enumerated() {
                if i > 0 { buffer.append(UInt8(ascii: ",")) }
                JSONStringEscaper.append(key, to: &buffer, htmlSafe: htmlSafe)
                buffer.append(UInt8(ascii: ":"))
                members[key]!.serialize(into: &buffer, htmlSafe: htmlSafe)
            }
            buffer.append(UInt8(ascii: "}"))
        }
    }
}

/// Appends the decimal digits of `value` without going through `String`.
func appendDecimal(_ value: Int64, to buffer: inout [UInt8]) {
    if value < 0 { buffer.append(UInt8(ascii: "-")) }
    var magnitude = value.magnitude
    var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                 UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
        (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    var count = 0
    withUnsafeMutableBytes(of: &digits) { raw in
        repeat {
            raw[count] = UInt8(magnitude % 10) + 0x30
            magnitude /= 10
            count += 1
        } while magnitude > 0
        for i in stride(from: count - 1, through: 0, by: -1) { buffer.append(raw[i]) }
    }
}
