/// Response header fields checked and encoded once, for a fixed set that many responses carry (a server's security
/// headers): ``HTTPHeaders/replaceOrAdd(_:)`` puts them on a response with no per-response field mutation, and
/// ``ResponseHead`` copies their bytes whole instead of checking and writing each field again.
///
/// The same rule as for any field applies, once, at `init`: a field the server owns (framing,
/// `X-Content-Type-Options`) or one that could split the head (a name that is not a token, a value with CR, LF or
/// NUL) is dropped. Thread-safe: an immutable value.
public struct EncodedHeaderFields: Sendable {
    private let storage: Storage

    /// Checks and encodes `headers`' fields, in order.
    public init(_ headers: HTTPHeaders) {
        var fields: [HTTPHeaders.Element] = []
        let bound = headers.reduce(0) { $0 + HeadWriter.bound($1) }
        let bytes = [UInt8](unsafeUninitializedCapacity: bound) { buffer, count in
            var writer = HeadWriter(buffer)
            for field in headers where writer.write(field) { fields.append(field) }
            count = writer.count
        }
        storage = Storage(fields: fields, bytes: bytes)
    }

    /// The fields kept, in order.
    var fields: [HTTPHeaders.Element] { storage.fields }

    /// Each field as `Name: value\r\n`, as a response head carries it.
    var bytes: [UInt8] { storage.bytes }

    /// Whether `other` is this very set (one encoding, shared), not merely equal fields.
    func isSame(as other: EncodedHeaderFields) -> Bool { storage === other.storage }

    /// Whether one of the fields is named `name` (case-insensitive).
    func names(_ name: some StringProtocol) -> Bool {
        storage.fields.contains { HTTPHeaders.sameName($0.name, name) }
    }

    /// One reference, so a response carries the fields for one retain. Thread-safe: immutable.
    private final class Storage: Sendable {
        let fields: [HTTPHeaders.Element]
        let bytes: [UInt8]

        init(fields: [HTTPHeaders.Element], bytes: [UInt8]) {
            self.fields = fields
            self.bytes = bytes
        }
    }
}
