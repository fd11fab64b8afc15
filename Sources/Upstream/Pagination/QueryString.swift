/// Adds query parameters to a URL, percent-encoded per RFC 3986.
///
/// Pure functions: thread-safe.
enum QueryString {
    /// `url` with `parameters` set in its query: existing parameters with the same names are removed,
    /// the new ones appended in order, and any `#fragment` kept at the end.
    static func url(_ url: String, setting parameters: [(name: String, value: String)]) -> String {
        var base = Substring(url)
        var fragment: Substring = ""
        if let hash = base.firstIndex(of: "#") {
            fragment = base[hash...]
            base = base[..<hash]
        }
        var pairs: [Substring] = []
        if let question = base.firstIndex(of: "?") {
            pairs = base[base.index(after: question)...].split(separator: "&", omittingEmptySubsequences: true)
            base = base[..<question]
        }
        let replaced = Set(parameters.map { encode($0.name) })
        pairs.removeAll { pair in
            let name = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            return replaced.contains(String(name))
        }
        let added = parameters.map { "\(encode($0.name))=\(encode($0.value))" }
        let query = (pairs.map(String.init) + added).joined(separator: "&")
        return base + (query.isEmpty ? "" : "?" + query) + fragment
    }

    /// Percent-encodes every byte of `s`'s UTF-8 except RFC 3986 unreserved characters
    /// (`A-Z a-z 0-9 - . _ ~`).
    static func encode(_ s: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(s.utf8.count)
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in s.utf8 {
            if isUnreserved(byte) {
                out.append(byte)
            } else {
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }
}
