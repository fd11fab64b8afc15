import JSON

/// An ``UpstreamPage`` as a shared store's value, and back:
///
/// `0x01` (the format) | fetched at: when its fetch started, Unix milliseconds (8 bytes, big-endian; the order of
/// shared writes, ``SharedPageOrder``) | `0x00` (last page) or `0x01`, the
/// next cursor's UTF-8 length (4 bytes, big-endian) and bytes | the items as one JSON array, each item's text as
/// the upstream sent it (``ItemTexts``).
///
/// Reading trusts nothing: a value of another format, cut short, longer than the cap, with a cursor that is not
/// UTF-8 or items that are not a JSON array (or that the reader cannot read) is nil (a miss), never a crash. The
/// items are read the way a fetched page's are: each straight from its text by the source's ``ItemReader``.
///
/// Thread-safe: pure functions.
public enum SharedPageCodec {
    static let format: UInt8 = 0x01

    /// The value for `page`, whose fetch started at `fetchedAt` (Unix ms).
    public static func encode<Item>(_ page: UpstreamPage<Item>, fetchedAt: UInt64) -> [UInt8] {
        var bytes: [UInt8] = [format]
        append(fetchedAt, bytes: 8, to: &bytes)
        if let cursor = page.nextCursor {
            bytes.append(1)
            append(UInt64(cursor.utf8.count), bytes: 4, to: &bytes)
            bytes.append(contentsOf: cursor.utf8)
        } else {
            bytes.append(0)
        }
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
        var offset = 10
        var cursor: String? = nil
        switch bytes[9] {
        case 0:
            break
        case 1:
            guard bytes.count >= 14 else { return nil }
            let length = Int(read(bytes, at: 10, count: 4))
            offset = 14 + length
            guard length <= bytes.count - 14,
                  let text = String(validating: bytes[14..<offset], as: UTF8.self) else { return nil }
            cursor = text
        default:
            return nil
        }
        let array = Array(bytes[offset...])
        let parsed = array.withUnsafeBufferPointer { JSONValue.parse(buffer: $0, itemsAt: everyElement) }
        guard case .success(let document) = parsed, document.document.arrayValue != nil else { return nil }
        let texts = ItemTexts(bytes: array, ranges: document.items)
        guard let items = try? PageSource<Item>.items(of: texts, reader: reader) else { return nil }
        return (UpstreamPage(items: items, texts: texts, nextCursor: cursor), fetchedAt)
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
