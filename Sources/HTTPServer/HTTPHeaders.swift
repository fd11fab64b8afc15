/// An ordered list of header fields with case-insensitive name lookup.
///
/// Thread-safe: a value type. Names and values are stored as given; the server refuses to serialise
/// a field containing CR, LF or NUL (it is dropped) so a value can never split the response.
/// Fields set as ``EncodedHeaderFields`` (``replaceOrAdd(_:)``) come after the others, in lookups, in iteration and
/// on the wire.
public struct HTTPHeaders: Sendable, Sequence, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    /// One field.
    public typealias Element = (name: String, value: String)

    private var fields: [Element] = []
    /// Fields checked and encoded once, after ``fields``; none of ``fields`` has one of their names (a change to
    /// one of those names first makes them plain fields: ``unpack(_:)``).
    private(set) var encoded: EncodedHeaderFields?

    /// An empty header list.
    public init() {}

    /// Fields in literal order.
    public init(dictionaryLiteral elements: (String, String)...) {
        for (name, value) in elements { add(name: name, value: value) }
    }

    /// The first value for `name` (case-insensitive), or nil.
    public subscript(name: String) -> String? {
        for field in fields where Self.sameName(field.name, name) { return field.value }
        for field in encoded?.fields ?? [] where Self.sameName(field.name, name) { return field.value }
        return nil
    }

    /// How many fields are named `name` (case-insensitive); no allocation.
    func count(of name: String) -> Int {
        var count = 0
        for field in self where Self.sameName(field.name, name) { count += 1 }
        return count
    }

    /// Every value for `name` (case-insensitive), in order.
    public func values(for name: String) -> [String] {
        var values: [String] = []   // no array at all when none matches (the usual `Accept-Encoding` of a script)
        for field in self where Self.sameName(field.name, name) { values.append(field.value) }
        return values
    }

    /// Whether a field named `name` exists.
    public func contains(_ name: String) -> Bool { self[name] != nil }

    /// Makes room for `count` plain fields in all (a parsed request's, at its first: one allocation, not one per
    /// doubling).
    mutating func reserveCapacity(_ count: Int) { fields.reserveCapacity(count) }

    /// Appends a field, keeping any existing ones of the same name.
    public mutating func add(name: String, value: String) {
        unpack(name)
        fields.append((name: name, value: value))
    }

    /// Replaces the first field named `name` and drops later ones; appends when absent.
    public mutating func replaceOrAdd(name: String, value: String) {
        unpack(name)
        guard let first = fields.firstIndex(where: { Self.sameName($0.name, name) }) else {
            add(name: name, value: value)
            return
        }
        fields[first] = (name: fields[first].name, value: value)
        var index = fields.count - 1
        while index > first {
            if Self.sameName(fields[index].name, name) { fields.remove(at: index) }
            index -= 1
        }
    }

    /// Sets `encoded`'s fields, replacing every field of the same name as one of them (and any encoded fields set
    /// before, whose other fields stay as plain ones): each is then sent once, its bytes copied whole. Mutates the
    /// plain fields only when one has such a name, so headers shared by many responses are not copied.
    public mutating func replaceOrAdd(_ encoded: EncodedHeaderFields) {
        if let previous = self.encoded {
            self.encoded = nil
            fields += previous.fields
        }
        if fields.contains(where: { encoded.names($0.name) }) { fields.removeAll { encoded.names($0.name) } }
        self.encoded = encoded
    }

    /// Removes every field named `name`.
    public mutating func remove(name: String) {
        unpack(name)
        fields.removeAll { Self.sameName($0.name, name) }
    }

    /// Turns the encoded fields into plain ones when one is named `name`, so a change to that name applies to it.
    private mutating func unpack(_ name: String) {
        guard let encoded, encoded.names(name) else { return }
        self.encoded = nil
        fields += encoded.fields
    }

    /// The fields that are not ``encoded``, in order.
    var plainFields: [Element] { fields }

    /// The number of fields.
    public var count: Int { fields.count + (encoded?.fields.count ?? 0) }

    public func makeIterator() -> Iterator {
        Iterator(plain: fields.makeIterator(), encoded: encoded?.fields.makeIterator())
    }

    /// The plain fields, then the encoded ones.
    public struct Iterator: IteratorProtocol {
        var plain: IndexingIterator<[Element]>
        var encoded: IndexingIterator<[Element]>?

        public mutating func next() -> Element? { plain.next() ?? encoded?.next() }
    }

    public var description: String { map { "\($0.name): \($0.value)" }.joined(separator: "\n") }

    /// Whether a comma-separated header (e.g. `Connection`) lists `token`, case-insensitively.
    func hasToken(_ token: String, in name: String) -> Bool {
        for field in self where Self.sameName(field.name, name) {
            if field.value.split(separator: ",").contains(where: { Self.sameName($0.trimmingSpaces, token) }) {
                return true
            }
        }
        return false
    }

    /// ASCII case-insensitive equality (field names and the tokens compared here are ASCII, RFC 9110 §5.1),
    /// byte by byte with no allocation. Bytes outside ASCII must be equal as they are.
    static func sameName(_ a: some StringProtocol, _ b: some StringProtocol) -> Bool { sameName(bytes: a.utf8, b.utf8) }

    /// ``sameName(_:_:)`` over UTF-8 bytes. Native strings and arrays are compared in place (a header lookup runs
    /// several times per request: iterating two `UTF8View`s together cost about 30 instructions a byte).
    static func sameName(bytes a: some Collection<UInt8>, _ b: some Collection<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        if let same = a.withContiguousStorageIfAvailable({ a in
            b.withContiguousStorageIfAvailable { b in sameName(buffers: a, b) }
        }), let same {
            return same
        }
        for (x, y) in zip(a, b) where !sameByte(x, y) { return false }
        return true
    }

    private static func sameName(buffers a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        for index in 0..<a.count where !sameByte(a[index], b[index]) { return false }
        return true
    }

    /// Equal, or the same ASCII letter in another case.
    @inline(__always)
    private static func sameByte(_ x: UInt8, _ y: UInt8) -> Bool {
        x == y || (x | 0x20 == y | 0x20 && (x | 0x20) >= UInt8(ascii: "a") && (x | 0x20) <= UInt8(ascii: "z"))
    }
}

extension StringProtocol {
    /// The string without leading and trailing spaces and tabs.
    var trimmingSpaces: Substring {
        let s = Substring(self)
        guard let start = s.firstIndex(where: { $0 != " " && $0 != "\t" }) else { return s[s.endIndex...] }
        let end = s.lastIndex(where: { $0 != " " && $0 != "\t" })!
        return s[start...end]
    }
}
