/// The `badge` format's CSS class slug.
///
/// Thread-safe: stateless.
enum BadgeFormatting {
    /// The longest slug, in characters.
    static let maximumSlugLength = 32

    /// Appends the slug of `text`: ASCII letters lower-cased, digits kept, every other character
    /// (one per Unicode scalar) replaced by "-", truncated to 32 characters. Only [a-z0-9-] is written.
    /// Works on the UTF-8 bytes: a scalar is its lead byte (continuation bytes, `10xxxxxx`, are skipped).
    static func appendSlug(_ text: String, to buffer: inout ByteWriter) {
        text.withUTF8Bytes { appendSlug(bytes: $0, to: &buffer) }
    }

    /// ``appendSlug(_:to:)`` of a text's UTF-8 bytes.
    static func appendSlug(bytes: UnsafeBufferPointer<UInt8>, to buffer: inout ByteWriter) {
        buffer.reserve(maximumSlugLength)
        var written = 0
        for byte in bytes where byte & 0xC0 != 0x80 {
            guard written < maximumSlugLength else { return }
            switch byte {
            case 0x61...0x7A, 0x30...0x39: buffer.put(byte)
            case 0x41...0x5A: buffer.put(byte + 0x20)
            default: buffer.put(UInt8(ascii: "-"))
            }
            written += 1
        }
    }
}
