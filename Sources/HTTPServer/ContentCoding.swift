/// A content coding the server can write a response in (RFC 9110 §8.4.1), chosen from a request's
/// `Accept-Encoding` by ``negotiated(acceptEncoding:)``. Thread-safe: a value type.
public enum ContentCoding: Sendable, Hashable {
    /// The bytes as they are.
    case identity
    /// gzip (RFC 1952), written as independently compressed deflate blocks (``DeflatedBlock``).
    case gzip

    /// The coding for a request whose `Accept-Encoding` field values are `values` (one per field line): gzip when
    /// the client gives gzip (or `x-gzip`) a q-value above 0, or gives `*` one and does not name gzip; else
    /// identity (also when the field is missing, empty or malformed: identity is always acceptable in practice,
    /// so a client refusing everything still gets an answer). An element with an invalid q-value counts as
    /// refused. Never throws: the field is untrusted input.
    public static func negotiated(acceptEncoding values: [String]) -> ContentCoding {
        var gzip: Bool?
        var any: Bool?
        for value in values {
            // Read over the field's bytes, nothing allocated: splitting and lowercasing into strings cost about
            // 3,000 instructions a request.
            HeadWriter.withBytes(of: value) { bytes in
                forEachPiece(of: bytes[...], separatedBy: UInt8(ascii: ",")) { element in
                    switch parseElement(element) {
                    case (.gzip, let accepted)?: gzip = (gzip ?? false) || accepted
                    case (.any, let accepted)?: any = (any ?? false) || accepted
                    case (.other, _)?, nil: break
                    }
                }
            }
        }
        return gzip ?? any ?? false ? .gzip : .identity
    }

    /// What an element names: gzip (or `x-gzip`), `*`, or another coding.
    private enum Named { case gzip, any, other }

    private typealias Bytes = Slice<UnsafeBufferPointer<UInt8>>

    /// `coding *( OWS ";" OWS name=value )`: the coding (ASCII case ignored) and whether its q-value is above 0
    /// (no q: 1). Nil for an empty element.
    private static func parseElement(_ element: Bytes) -> (Named, Bool)? {
        var name: Bytes?
        var accepted = true
        forEachPiece(of: element, separatedBy: UInt8(ascii: ";")) { piece in
            guard name != nil else { return name = trimmed(piece) }
            let pair = trimmed(piece)
            guard pair.count >= 2, pair.first == UInt8(ascii: "q") || pair.first == UInt8(ascii: "Q"),
                  pair[pair.index(after: pair.startIndex)] == UInt8(ascii: "=")
            else { return }
            accepted = qValueAboveZero(pair.dropFirst(2))
        }
        guard let name, !name.isEmpty else { return nil }
        return (named(name), accepted)
    }

    /// Calls `body` with each piece of `bytes` between `separator`s (empty pieces too), in order.
    private static func forEachPiece(of bytes: Bytes, separatedBy separator: UInt8, _ body: (Bytes) -> Void) {
        var start = bytes.startIndex
        while true {
            let end = bytes[start...].firstIndex(of: separator) ?? bytes.endIndex
            body(bytes[start..<end])
            guard end < bytes.endIndex else { return }
            start = end + 1
        }
    }

    private static func named(_ name: Bytes) -> Named {
        func equals(_ literal: StaticString) -> Bool {
            guard name.count == literal.utf8CodeUnitCount else { return false }
            var lower = literal.utf8Start
            for byte in name {
                let folded: UInt8 = byte >= 0x41 && byte <= 0x5a ? byte | 0x20 : byte
                guard folded == lower.pointee else { return false }
                lower += 1
            }
            return true
        }
        if equals("gzip") || equals("x-gzip") { return .gzip }
        return equals("*") ? .any : .other
    }

    /// RFC 9110 §12.4.2: `( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] )`. Anything else is invalid (false).
    private static func qValueAboveZero(_ value: Bytes) -> Bool {
        guard let lead = value.first, lead == UInt8(ascii: "0") || lead == UInt8(ascii: "1") else { return false }
        let rest = value.dropFirst()
        guard !rest.isEmpty else { return lead == UInt8(ascii: "1") }
        guard rest.first == UInt8(ascii: "."), rest.count <= 4 else { return false }
        let digits = rest.dropFirst()
        guard digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return false }
        if lead == UInt8(ascii: "1") { return digits.allSatisfy { $0 == UInt8(ascii: "0") } }
        return digits.contains { $0 != UInt8(ascii: "0") }
    }

    /// Without surrounding spaces and tabs (OWS).
    private static func trimmed(_ bytes: Bytes) -> Bytes {
        let isSpace = { (byte: UInt8) in byte == 32 || byte == 9 }
        guard let start = bytes.firstIndex(where: { !isSpace($0) }),
              let end = bytes.lastIndex(where: { !isSpace($0) })
        else { return bytes[bytes.endIndex...] }
        return bytes[start...end]
    }
}
