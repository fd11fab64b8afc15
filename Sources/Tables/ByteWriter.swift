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
    /// `lineBreak`'s bytes in one word (``packed(_:)``) when it has at most 8, for one store; else 0.
    let lineBreakWord: UInt64

    /// An empty writer with room for `capacity` bytes before it grows, writing line breaks as `lineBreak`.
    init(capacity: Int, lineBreak: StaticString = "\n") {
        self.capacity = max(capacity, 256)
        self.lineBreak = lineBreak
        lineBreakWord = lineBreak.utf8CodeUnitCount <= 8 ? Self.packed(lineBreak) : 0
        base = .allocate(capacity: self.capacity)
    }

    /// Up to 8 bytes of `text` in one word, the first byte lowest: stored with ``store(_:at:)`` they read as `text`.
    static func packed(_ text: StaticString) -> UInt64 {
        var word: UInt64 = 0
        for k in (0..<min(text.utf8CodeUnitCount, 8)).reversed() { word = word << 8 | UInt64(text.utf8Start[k]) }
        return word
    }

    /// Stores the 8 bytes of a ``packed(_:)`` word at `out` (unaligned); the caller keeps only as many as it packed.
    @inline(__always)
    static func store(_ word: UInt64, at out: UnsafeMutablePointer<UInt8>) {
        UnsafeMutableRawPointer(out).storeBytes(of: word.littleEndian, as: UInt64.self)
    }

    /// The 8 bytes at `source` (unaligned) as a word, the first byte lowest: ``store(_:at:)`` writes them back.
    @inline(__always)
    static func load(_ source: UnsafePointer<UInt8>) -> UInt64 {
        UnsafeRawPointer(source).loadUnaligned(as: UInt64.self).littleEndian
    }

    /// Lets `body` write straight into the buffer, after what is written: it gets room for `maximum` bytes and
    /// returns how many it wrote (it may store scratch past them, within `maximum`). One capacity check for a
    /// whole piece of output (a date, a number, a run of escaped text) instead of one per byte.
    @inline(__always)
    mutating func write(upTo maximum: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        reserve(maximum)
        count &+= body(base + count)
    }

    deinit { base.deallocate() }

    /// Makes room for `more` bytes; `put` may then write that many without checks.
    @inline(__always)
    mutating func reserve(_ more: Int) {
        if count &+ more > capacity { grow(to: count + more) }
    }

    /// `releasenone`: growing frees only the old bytes, never an object. Said so, Swift knows that a write cannot
    /// end a string's life, and reads a row's strings in place around writes without retaining them (see
    /// TableRenderer+Cells.swift); unsaid, it retains every string it escapes, in case the growth frees it.
    @inline(never) @_effects(releasenone)
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
        let target = base + count
        if n <= 8 {
            // Markup pieces and short runs: a few byte stores beat a call to memmove.
            for k in 0..<n { target[k] = source[k] }
        } else if n <= 32 {
            // A cell's opening markup (`</td><td class="rs-c rs-number">` is 32 bytes): words from both ends,
            // overlapping in the middle, instead of a call to memmove per cell.
            let head = Self.load(source), tail = Self.load(source + (n &- 8))
            if n > 16 {
                let second = Self.load(source + 8), third = Self.load(source + (n &- 16))
                Self.store(second, at: target + 8)
                Self.store(third, at: target + (n &- 16))
            }
            Self.store(head, at: target)
            Self.store(tail, at: target + (n &- 8))
        } else {
            target.initialize(from: source, count: n)
        }
        count &+= n
    }

    /// Appends again the bytes at `range` of what was written.
    mutating func appendWritten(_ range: Range<Int>) {
        precondition(range.lowerBound >= 0 && range.upperBound <= count)
        reserve(range.count)
        (base + count).initialize(from: base + range.lowerBound, count: range.count)
        count &+= range.count
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
        text.withUTF8Bytes { append($0) }
    }

    /// Appends the decimal digits of `value`.
    mutating func appendDecimal(_ value: Int) {
        write(upTo: 21) { out in
            if value < 0 { out[0] = UInt8(ascii: "-") }
            let sign = value < 0 ? 1 : 0
            return sign &+ Self.putDigits(UInt64(value.magnitude), minimumWidth: 1, at: out + sign)
        }
    }

    /// Appends the digits of `value`, zero-padded to `minimumWidth`.
    mutating func appendDigits(_ value: UInt, minimumWidth: Int) {
        write(upTo: max(20, minimumWidth)) { Self.putDigits(UInt64(value), minimumWidth: minimumWidth, at: $0) }
    }

    /// Writes the decimal digits of `value` at `out`, zero-padded to `minimumWidth`; returns how many.
    @inline(__always)
    static func putDigits(_ value: UInt64, minimumWidth: Int, at out: UnsafeMutablePointer<UInt8>) -> Int {
        var digits = 1
        var rest = value / 10
        while rest > 0 {
            digits &+= 1
            rest /= 10
        }
        let width = max(digits, minimumWidth)
        var position = width
        var v = value
        while position > 0 {   // from the right; zeros once the value runs out
            position &-= 1
            out[position] = UInt8(truncatingIfNeeded: v % 10) &+ 0x30
            v /= 10
        }
        return width
    }

    /// Writes `value` (0...99) as two digits at `out`.
    @inline(__always)
    static func putTwoDigits(_ value: Int, at out: UnsafeMutablePointer<UInt8>) {
        out[0] = UInt8(truncatingIfNeeded: value / 10) &+ 0x30
        out[1] = UInt8(truncatingIfNeeded: value % 10) &+ 0x30
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
