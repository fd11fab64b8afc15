/// The renderer's output buffer: bytes written through a raw pointer, growing by doubling. Rows are written
/// here and copied to the caller's `[UInt8]` once, so the per-cell work has no `Array` uniqueness or
/// capacity checks per append, and no generic sequence copying.
///
/// Thread rules: a noncopyable value owned by one caller for one render; never shared.
struct ByteWriter: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// Bytes written.
    private(set) var count = 0
    /// What escaped text's line breaks are written as (``HTMLEscaping``): LF, or `\ndata: ` when the bytes are an
    /// SSE event's data framed as they are written.
    let lineBreak: StaticString

    /// An empty writer with room for `capacity` bytes before it grows, writing line breaks as `lineBreak`.
    init(capacity: Int, lineBreak: StaticString = "\n") {
        self.capacity = max(capacity, 256)
        self.lineBreak = lineBreak
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// Makes room for `more` bytes; `put` may then write that many without checks.
    @inline(__always)
    mutating func reserve(_ more: Int) {
        if count &+ more > capacity { grow(to: count + more) }
    }

    @inline(never)
    private mutating func grow(to needed: Int) {
        let newCapacity = max(needed, capacity &* 2)
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.initialize(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    /// Writes one byte into room made by `reserve`.
    @inline(__always)
    mutating func put(_ byte: UInt8) {
        base[count] = byte
        count &+= 1
    }

    /// Appends one byte.
    @inline(__always)
    mutating func append(_ byte: UInt8) {
        reserve(1)
        put(byte)
    }

    /// Appends raw bytes.
    @inline(__always)
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress else { return }
        let n = bytes.count
        reserve(n)
        if n <= 8 {
            // Markup pieces and short runs: a few byte stores beat a call to memmove.
            for k in 0..<n { base[count &+ k] = source[k] }
        } else {
            (base + count).initialize(from: source, count: n)
        }
        count &+= n
    }

    /// Appends a literal (trusted markup).
    @inline(__always)
    mutating func append(_ literal: StaticString) {
        append(UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    /// Appends the bytes of an array.
    mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append($0) }
    }

    /// Appends the UTF-8 of `text` as is (trusted text, or text already checked to need no escaping).
    mutating func appendUTF8(_ text: String) {
        var text = text
        text.withUTF8 { append($0) }
    }

    /// Appends the decimal digits of `value`.
    mutating func appendDecimal(_ value: Int) {
        if value < 0 { append(UInt8(ascii: "-")) }
        appendDigits(value.magnitude, minimumWidth: 1)
    }

    /// Appends the digits of `value`, zero-padded to `minimumWidth`.
    mutating func appendDigits(_ value: UInt, minimumWidth: Int) {
        if value < 100 && minimumWidth == 2 {   // dates and times: two digits, the common case
            reserve(2)
            put(UInt8(truncatingIfNeeded: value / 10) &+ 0x30)
            put(UInt8(truncatingIfNeeded: value % 10) &+ 0x30)
            return
        }
        // One pass from the right into a scratch of 20 (UInt.max has 20 digits), then pad and copy.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { scratch in
            var position = 20
            var v = value
            repeat {
                position &-= 1
                scratch[position] = UInt8(truncatingIfNeeded: v % 10) &+ 0x30
                v /= 10
            } while v > 0
            let digits = 20 &- position
            if minimumWidth > digits {
                reserve(minimumWidth &- digits)
                for _ in digits..<minimumWidth { put(UInt8(ascii: "0")) }
            }
            append(UnsafeBufferPointer(rebasing: scratch[position..<20]))
        }
    }

    /// Appends what was written to `array`.
    func copy(to array: inout [UInt8]) {
        array.append(contentsOf: UnsafeBufferPointer(start: base, count: count))
    }

    /// What was written, as a new array.
    var bytes: [UInt8] {
        [UInt8](UnsafeBufferPointer(start: base, count: count))
    }
}
