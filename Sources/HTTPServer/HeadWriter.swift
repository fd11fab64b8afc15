/// Writes a response head's pieces into a buffer sized for them up front (``ResponseHead``,
/// ``EncodedHeaderFields``): each piece is one copy from where its bytes are stored, with no per-byte walk through
/// `String.UTF8View` and no growth checks. Writing past the buffer is a programmer error (the caller's bound was
/// wrong) and traps rather than writing out of bounds.
///
/// Thread rules: a value used only inside the `[UInt8](unsafeUninitializedCapacity:)` closure that gave it its buffer.
struct HeadWriter {
    private let buffer: UnsafeMutableBufferPointer<UInt8>
    /// Bytes written so far.
    private(set) var count = 0

    init(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        self.buffer = buffer
    }

    /// `bytes`, copied.
    mutating func write(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        precondition(bytes.count <= buffer.count - count, "response head larger than its bound")
        (buffer.baseAddress! + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    /// A literal's bytes.
    mutating func write(_ text: StaticString) {
        write(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// One byte.
    mutating func write(byte: UInt8) {
        precondition(count < buffer.count, "response head larger than its bound")
        buffer[count] = byte
        count += 1
    }

    /// The decimal digits of `value` (negative: 0): at most 19 bytes.
    mutating func write(decimal value: Int) {
        guard value >= 10 else { return write(byte: UInt8(truncatingIfNeeded: max(0, value)) + 0x30) }
        write(decimal: value / 10)
        write(byte: UInt8(truncatingIfNeeded: value % 10) + 0x30)
    }

    /// `field` as `Name: value\r\n` when it may be written, and whether it was (``ResponseHead/writes(name:value:)``):
    /// at most its name's and value's UTF-8 bytes plus 4.
    @discardableResult
    mutating func write(_ field: HTTPHeaders.Element) -> Bool {
        Self.withBytes(of: field.name) { name in
            Self.withBytes(of: field.value) { value in
                guard ResponseHead.writes(name: name, value: value) else { return false }
                write(name)
                write(": ")
                write(value)
                write("\r\n")
                return true
            }
        }
    }

    /// Calls `body` with `text`'s UTF-8 bytes where they are stored (a copy only for a string not stored as
    /// contiguous UTF-8).
    @inline(__always)
    static func withBytes<R>(of text: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
        return Array(text.utf8).withUnsafeBufferPointer(body)
    }

    /// How many bytes ``write(_:)-(HTTPHeaders.Element)`` may take for `field`.
    static func bound(_ field: HTTPHeaders.Element) -> Int { field.name.utf8.count + field.value.utf8.count + 4 }
}
