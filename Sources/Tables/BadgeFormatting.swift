/// The `badge` format's CSS class slug.
///
/// Thread-safe: stateless.
enum BadgeFormatting {
    /// The longest slug, in characters.
    static let maximumSlugLength = 32

    /// Appends the slug of `text`: ASCII letters lower-cased, digits kept, every other character
    /// (one per Unicode scalar) replaced by "-", truncated to 32 characters. Only [a-z0-9-] is written.
    static func appendSlug(_ text: String, to buffer: inout [UInt8]) {
        var written = 0
        for scalar in text.unicodeScalars {
            guard written < maximumSlugLength else { return }
            switch scalar.value {
            case 0x61...0x7A, 0x30...0x39: buffer.append(UInt8(scalar.value))
            case 0x41...0x5A: buffer.append(UInt8(scalar.value + 0x20))
            default: buffer.append(UInt8(ascii: "-"))
            }
            written += 1
        }
    }
}
