/// The value of one cookie in a request's `Cookie` header (RFC 6265 §5.4: `name=value` pairs separated by `;` and
/// optional spaces). Only the first cookie of the name counts; headers over 8 KiB and values over 4 KiB are not read.
/// A pure function of the header's text (fuzzed: `FuzzAccessCredentials`).
///
/// Thread-safe: stateless.
public enum CookieHeader {
    /// The value of cookie `name` in `header`, or nil.
    public static func value(named name: String, in header: String) -> String? {
        guard header.utf8.count <= 8_192 else { return nil }
        for pair in header.utf8.split(separator: 0x3B, omittingEmptySubsequences: true) {
            let trimmed = pair.drop(while: { $0 == 0x20 || $0 == 0x09 })
            guard let equals = trimmed.firstIndex(of: 0x3D) else { continue }
            guard trimmed[..<equals].elementsEqual(name.utf8) else { continue }
            var value = trimmed[trimmed.index(after: equals)...]
            while let last = value.last, last == 0x20 || last == 0x09 { value = value.dropLast() }
            if value.count >= 2, value.first == 0x22, value.last == 0x22 { value = value.dropFirst().dropLast() }
            guard value.count <= 4_096 else { return nil }
            return String(decoding: value, as: UTF8.self)
        }
        return nil
    }
}
