/// The bytes of a head as a shared log stores them (``LiveChannel``): a version byte (1), whether it is the whole
/// list (0 or 1), the row count, then each row's key and `<tr>` bytes, every count and length a 4-byte big-endian
/// number. Decoding checks every length against what is left: a damaged or foreign value is refused, never misread.
extension LiveHeadRows {
    private static let version: UInt8 = 1

    package var bytes: [UInt8] {
        var out: [UInt8] = [Self.version, isWholeList ? 1 : 0]
        out.reserveCapacity(rows.reduce(6) { $0 + 8 + $1.key.utf8.count + $1.html.count })
        Self.append(UInt32(rows.count), to: &out)
        for row in rows {
            Self.append(UInt32(row.key.utf8.count), to: &out)
            out += row.key.utf8
            Self.append(UInt32(row.html.count), to: &out)
            out += row.html
        }
        return out
    }

    /// The head in `bytes`, or nil when they are not one (another version, cut short, trailing bytes).
    package init?(bytes: [UInt8]) {
        var reader = Reader(bytes: bytes)
        guard reader.byte() == Self.version, let whole = reader.byte(), whole <= 1, let count = reader.number() else {
            return nil
        }
        var rows: [LiveRow] = []
        for _ in 0..<count {
            guard let key = reader.chunk(), let html = reader.chunk() else { return nil }
            rows.append(LiveRow(key: String(decoding: key, as: UTF8.self), html: Array(html)))
        }
        guard reader.isAtEnd else { return nil }
        self.init(rows: rows, isWholeList: whole == 1)
    }

    private static func append(_ number: UInt32, to out: inout [UInt8]) {
        out += [UInt8(number >> 24), UInt8(number >> 16 & 0xFF), UInt8(number >> 8 & 0xFF), UInt8(number & 0xFF)]
    }

    /// Reads `bytes` front to back; every read is checked against what is left.
    private struct Reader {
        let bytes: [UInt8]
        var offset = 0

        var isAtEnd: Bool { offset == bytes.count }

        mutating func byte() -> UInt8? {
            guard offset < bytes.count else { return nil }
            defer { offset += 1 }
            return bytes[offset]
        }

        mutating func number() -> Int? {
            guard bytes.count - offset >= 4 else { return nil }
            defer { offset += 4 }
            return bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
        }

        mutating func chunk() -> ArraySlice<UInt8>? {
            guard let length = number(), bytes.count - offset >= length else { return nil }
            defer { offset += length }
            return bytes[offset..<offset + length]
        }
    }
}
