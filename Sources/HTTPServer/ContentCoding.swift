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
            for element in value.utf8.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: true) {
                guard let (name, accepted) = parseElement(element) else { continue }
                if name == "gzip" || name == "x-gzip" {
                    gzip = (gzip ?? false) || accepted
                } else if name == "*" {
                    any = (any ?? false) || accepted
                }
            }
        }
        return gzip ?? any ?? false ? .gzip : .identity
    }

    /// `coding *( OWS ";" OWS name=value )`: the lowercased coding and whether its q-value is above 0 (no q: 1).
    /// Nil for an empty element.
    private static func parseElement(_ element: Substring.UTF8View.SubSequence) -> (String, Bool)? {
        var parts = element.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false).makeIterator()
        guard let first = parts.next() else { return nil }
        let name = String(decoding: trimmed(first), as: UTF8.self).lowercased()
        guard !name.isEmpty else { return nil }
        var accepted = true
        while let parameter = parts.next() {
            let pair = trimmed(parameter)
            guard pair.count >= 2, pair.first == UInt8(ascii: "q") || pair.first == UInt8(ascii: "Q"),
                  pair[pair.index(after: pair.startIndex)] == UInt8(ascii: "=")
            else { continue }
            accepted = qValueAboveZero(pair.dropFirst(2))
        }
        return (name, accepted)
    }

    /// RFC 9110 §12.4.2: `( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] )`. Anything else is invalid (false).
    private static func qValueAboveZero(_ value: Substring.UTF8View.SubSequence) -> Bool {
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
    private static func trimmed(_ bytes: Substring.UTF8View.SubSequence) -> Substring.UTF8View.SubSequence {
        let isSpace = { (byte: UInt8) in byte == 32 || byte == 9 }
        guard let start = bytes.firstIndex(where: { !isSpace($0) }),
              let end = bytes.lastIndex(where: { !isSpace($0) })
        else { return bytes[bytes.endIndex...] }
        return bytes[start...end]
    }
}
