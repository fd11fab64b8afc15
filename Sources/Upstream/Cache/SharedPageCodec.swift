import JSON

/// An ``UpstreamPage`` as a shared store's value, and back:
///
/// `0x01` (the format) | fetched at: when its fetch started, Unix milliseconds (8 bytes, big-endian; the order of
/// shared writes, ``SharedPageOrder``) | flags: bit 0 a next cursor follows, bit 1 a total follows | if bit 0, the
/// next cursor's UTF-8 length (4 bytes, big-endian) and bytes | if bit 1, the list's total as the page reported it
/// (``UpstreamPage/total``, 8 bytes, big-endian) | the items as one JSON array, each item's text as the upstream
/// sent it (``ItemTexts``). A value without bit 1 (as one written before totals were kept) reads as a page without
/// a total; a reader that knows no bit 1 reads a value with it as a miss.
///
/// Reading trusts nothing: a value of another format, cut short, longer than the cap, with a cursor that is not
/// UTF-8 or items that are not a JSON array (or that the reader cannot read) is nil (a miss), never a crash. The
/// items are read the way a fetched page's are: each straight from its text by the source's ``ItemReader``.
///
/// Thread-safe: pure functions.
public enum SharedPageCodec {
    static let format: UInt8 = 0x01
    /// The flags byte's bits: a next cursor follows; a total follows.
    static let hasCursor: UInt8 = 0x01, hasTotal: UInt8 = 0x02

    /// The value for `page`, whose fetch started at `fetchedAt` (Unix ms).
    public static func encode<Item>(_ page: UpstreamPage<Item>, fetchedAt: UInt64) -> [UInt8] {
        var bytes: [UInt8] = [format]
        append(fetchedAt, bytes: 8, to: &bytes)
        let total = page.total.flatMap { $0 >= 0 ? UInt64($0) : nil }
        bytes.append((page.nextCursor == nil ? 0 : hasCursor) | (total == nil ? 0 : hasTotal))
        if let cursor = page.nextCursor {
            append(UInt64(cursor.utf8.count), bytes: 4, to: &bytes)
            bytes.append(contentsOf: cursor.utf8)
        }
        if let total { append(total, bytes: 8, to: &bytes) }
        page.texts.appendArray(to: &bytes)
        return bytes
    }

    /// The page in `bytes` (its items read by `reader`) and when it was fetched, or nil for anything but a
    /// well-formed value of at most `maxBytes`.
    public static func decode<Item>(
        _ bytes: [UInt8], maxBytes: Int, reader: ItemReader<Item>
    ) -> (page: UpstreamPage<Item>, fetchedAt: UInt64)? {
        guard bytes.count <= maxBytes, bytes.count >= 10, bytes[0] == format else { return nil }
        let fetchedAt = read(bytes, at: 1, count: 8)
        let flags = bytes[9]
        guard flags & ~(hasCursor | hasTotal) == 0 else { return nil }
        var offset = 10
        var cursor: String? = nil
        if flags & hasCursor != 0 {
            guard bytes.count >= offset + 4 else { return nil }
            let length = Int(read(bytes, at: offset, count: 4))
            guard length <= bytes.count - offset - 4,
                  let text = String(validating: bytes[(offset + 4)..<(offset + 4 + length)], as: UTF8.self)
            else { return nil }
            cursor = text
            offset += 4 + length
        }
        var total: Int? = nil
        if flags & hasTotal != 0 {
            guard bytes.count >= offset + 8 else { return nil }
            let value = read(bytes, at: offset, count: 8)
            guard value <= UInt64(Int.max) else { return nil }
            total = Int(value)
            offset += 8
        }
        let array = Array(bytes[offset...])
        let parsed = array.withUnsafeBufferPointer { JSONValue.parse(buffer: $0, itemsAt: everyElement) }
        guard case .success(let document) = parsed, document.document.arrayValue != nil else { return nil }
        let texts = ItemTexts(bytes: array, ranges: document.items)
        guard let items = try? PageSource<Item>.items(of: texts, reader: reader) else { return nil }
        return (UpstreamPage(items: items, texts: texts, nextCursor: cursor, total: total), fetchedAt)
    }

    /// Every element of the root array.
    private static let everyElement = JSONPath(components: [.each])

    private static func append(_ value: UInt64, bytes count: Int, to bytes: inout [UInt8]) {
        for shift in stride(from: (count - 1) * 8, through: 0, by: -8) {
            bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
        }
    }

    private static func read(_ bytes: [UInt8], at offset: Int, count: Int) -> UInt64 {
        bytes[offset..<(offset + count)].reduce(0) { $0 << 8 | UInt64($1) }
    }
}
