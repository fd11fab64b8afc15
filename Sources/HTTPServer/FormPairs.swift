import Glibc

/// The `name=value` pairs of `application/x-www-form-urlencoded` text (a request's query, a form's body), walked
/// where their bytes lie: no array of pairs, and no string made for a pair whose name is not the one asked for (the
/// stream route asks for five names per request: splitting the query into arrays each time was an eighth of a
/// viewer's arrival). Names and values are form-decoded (`+` and `%XX`) as ``PercentDecoding`` decodes.
///
/// Pure functions; thread-safe.
enum FormPairs {
    /// Hands `visit` the value of each pair named `name`, in order, until it returns false: decoded, nil when
    /// malformed (a bad `%XX` escape, or not UTF-8), "" for a pair with no `=`. A pair whose name is malformed is
    /// nobody's. Empty pairs (`a=1&&b=2`) are skipped.
    static func forEachValue(named name: String, in text: UnsafeBufferPointer<UInt8>, _ visit: (String?) -> Bool) {
        guard let base = text.baseAddress else { return }
        HeadWriter.withBytes(of: name) { wanted in
            var start = 0
            // Index loops over the pointer: slicing the buffer instantiated generic metadata on every call.
            while start < text.count {
                var end = start, equals = -1
                while end < text.count, text[end] != UInt8(ascii: "&") {
                    if equals < 0, text[end] == UInt8(ascii: "=") { equals = end }
                    end += 1
                }
                defer { start = end + 1 }
                guard end > start else { continue }
                let nameEnd = equals < 0 ? end : equals
                guard isName(UnsafeBufferPointer(start: base + start, count: nameEnd - start), wanted) else { continue }
                let value = equals < 0 ? "" : PercentDecoding.decode(
                    bytes: UnsafeBufferPointer(start: base + equals + 1, count: end - equals - 1), plusAsSpace: true)
                if !visit(value) { return }
            }
        }
    }

    /// The first value of the pairs named `name` (see ``forEachValue(named:in:_:)``); nil when absent or malformed.
    static func firstValue(named name: String, in text: UnsafeBufferPointer<UInt8>) -> String? {
        var first: String?
        forEachValue(named: name, in: text) { value in
            first = value
            return false
        }
        return first
    }

    /// Every value of the pairs named `name`, in order (an element is nil when malformed); empty when absent.
    static func values(named name: String, in text: UnsafeBufferPointer<UInt8>) -> [String?] {
        var values: [String?] = []
        forEachValue(named: name, in: text) { value in
            values.append(value)
            return true
        }
        return values
    }

    /// Whether a pair's raw name decodes to `wanted`: compared byte for byte when it has no escape (the usual case),
    /// else decoded first.
    private static func isName(_ raw: UnsafeBufferPointer<UInt8>, _ wanted: UnsafeBufferPointer<UInt8>) -> Bool {
        guard raw.contains(where: { PercentDecoding.isEscape($0, true) }) else {
            return raw.count == wanted.count && (raw.isEmpty || memcmp(raw.baseAddress!, wanted.baseAddress!, raw.count) == 0)
        }
        guard let decoded = PercentDecoding.decode(bytes: raw, plusAsSpace: true) else { return false }
        return decoded.utf8.elementsEqual(wanted)
    }
}
