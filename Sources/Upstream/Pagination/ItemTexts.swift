import JSON

/// Each item of a page as the upstream sent it: its JSON text, a range of one buffer (the page's body, kept as it
/// came, or the items written out). What a page keeps besides the items read from it: the walk's dedup keys, the
/// JSON proxy and the cluster's shared store read it.
///
/// A plain value: thread-safe. Copies share the buffer and the ranges (copy-on-write arrays).
public struct ItemTexts: Sendable {
    /// The buffer the ranges are in.
    public let bytes: [UInt8]
    /// Each item's range in ``bytes``, in the page's order.
    public private(set) var ranges: [Range<Int>]
    /// These very texts: one per page read (copies share it; texts with other ranges get another). What remembers
    /// something of a page without keeping it alive holds this weakly (``PageKeyHashes``).
    private(set) var identity = ItemTextsIdentity()

    /// Items at `ranges` of `bytes`.
    public init(bytes: [UInt8], ranges: [Range<Int>]) {
        self.bytes = bytes
        self.ranges = ranges
    }

    /// The texts of `values`, written out compactly one after another.
    public init(_ values: [JSONValue]) {
        var bytes: [UInt8] = []
        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(values.count)
        for value in values {
            let start = bytes.count
            value.serialize(into: &bytes)
            ranges.append(start..<bytes.count)
        }
        self.init(bytes: bytes, ranges: ranges)
    }

    /// These texts in a buffer of their own when they fill less than half of the one they are in (a body with much
    /// besides its items: what a cached page keeps stays about the size of its items).
    public func compacted() -> ItemTexts {
        let used = ranges.reduce(0) { $0 + $1.count }
        guard used < bytes.count / 2 else { return self }
        var compact: [UInt8] = []
        compact.reserveCapacity(used)
        var moved: [Range<Int>] = []
        moved.reserveCapacity(ranges.count)
        for range in ranges {
            let start = compact.count
            compact.append(contentsOf: bytes[range])
            moved.append(start..<compact.count)
        }
        return ItemTexts(bytes: compact, ranges: moved)
    }

    /// The number of items.
    public var count: Int { ranges.count }

    /// Calls `body` with the text of item `index`.
    public func withText<Result>(
        _ index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws(JSONError) -> Result
    ) throws(JSONError) -> Result {
        let range = ranges[index]
        return try bytes.withUnsafeBufferPointer { (buffer) throws(JSONError) -> Result in
            try body(UnsafeBufferPointer(rebasing: buffer[range]))
        }
    }

    /// Item `index` as a JSON value. The text was checked when the page was read, so this fails only for texts
    /// made otherwise (nil then).
    public func value(_ index: Int) -> JSONValue? {
        try? withText(index) { (text) throws(JSONError) in try JSONValue.parse(buffer: text).get() }
    }

    /// Every item as a JSON value (what the JSON proxy shows); an item that does not parse is left out.
    public var values: [JSONValue] { ranges.indices.compactMap(value) }

    /// The value at `path` in item `index` (nil: absent, or the text does not parse).
    public func value(at path: JSONPath, in index: Int) -> JSONValue? {
        try? withText(index) { (text) throws(JSONError) in try JSONValue.value(at: path, in: text) }
    }

    /// The items as one JSON array: `[`, the texts joined by `,`, `]`.
    public func appendArray(to out: inout [UInt8]) {
        out.append(UInt8(ascii: "["))
        for (index, range) in ranges.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: bytes[range])
        }
        out.append(UInt8(ascii: "]"))
    }

    /// These texts without the items at `dropped` (ascending indices).
    func dropping(_ dropped: [Int]) -> ItemTexts {
        var kept = self
        kept.ranges = Self.dropping(dropped, from: ranges)
        kept.identity = ItemTextsIdentity()
        return kept
    }

    /// `elements` without those at `dropped` (ascending indices).
    static func dropping<Element>(_ dropped: [Int], from elements: [Element]) -> [Element] {
        var kept: [Element] = []
        kept.reserveCapacity(elements.count - dropped.count)
        var nextDropped = 0
        for (index, element) in elements.enumerated() {
            if nextDropped < dropped.count, dropped[nextDropped] == index { nextDropped += 1 } else { kept.append(element) }
        }
        return kept
    }
}

/// The identity of one ``ItemTexts``: an object with nothing in it, compared by reference and held weakly by what
/// must not keep a page alive. Thread-safe: immutable.
final class ItemTextsIdentity: Sendable {}
