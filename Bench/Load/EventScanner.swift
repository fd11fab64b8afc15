import Glibc

/// Incremental reader of one HTTP response carrying a text/event-stream: the status from the head, then each
/// event (`event`, `data`, `id`) once its blank line arrives. Line ends may be LF, CRLF or CR (the SSE grammar;
/// Rowstream writes LF, sse-starlette CRLF): `append` turns each into one LF, also across reads.
/// Thread rules: a value owned by one connection on the load client's single thread.
struct EventScanner {
    struct Event {
        var name = "message"
        var data: [UInt8] = []
        var id: String?
    }

    /// Bytes received; those before `start` are parsed already (dropped in one move once they are half of it).
    private var buffer: [UInt8] = []
    private var start = 0
    /// Bytes before this index were searched for a blank line without a hit (past `start`).
    private var scanned = 0
    private(set) var status: Int?
    /// The last byte appended was a CR: an LF that starts the next read belongs to it.
    private var afterCR = false

    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty else { return }
        if start > 0, start >= buffer.count / 2 {  // drop what was parsed: at most one move per half of the buffer
            buffer.removeFirst(start)
            scanned -= start
            start = 0
        }
        // Copied in runs between CRs (each CR or CRLF one LF): a read holding a response head (CRLF) and a 30 KB
        // batch after it is not copied byte by byte.
        let base = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let count = bytes.count
        var index = afterCR && base[0] == 10 ? 1 : 0  // the LF of a CRLF split between two reads
        afterCR = false
        while index < count {
            guard let hit = memchr(base + index, 13, count - index) else {
                buffer.append(contentsOf: UnsafeBufferPointer(start: base + index, count: count - index))
                return
            }
            let cr = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            buffer.append(contentsOf: UnsafeBufferPointer(start: base + index, count: cr - index))
            buffer.append(10)
            index = cr + 1
            if index == count { afterCR = true } else if base[index] == 10 { index += 1 }
        }
    }

    /// The next complete event (parsing the head first); nil when more bytes are needed.
    mutating func next() -> Event? {
        if status == nil {
            guard let end = findBlankLine() else { return nil }
            let line = String(decoding: buffer[start..<min(end, start + 64)], as: UTF8.self)
            status = line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
            consume(through: end + 2)
        }
        while let end = findBlankLine() {
            let event = buffer.withUnsafeBufferPointer { Self.parse($0, from: start, to: end) }
            consume(through: end + 2)
            if let event { return event }  // comments (": ping") and retry-only blocks are skipped
        }
        return nil
    }

    /// The event in `bytes[from..<end]` (its lines, without the blank line), nil if it has no `data` field. One pass
    /// over the block, line by line: `field: value` or `field:value`; a line starting with ':' is a comment.
    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>, from: Int, to end: Int) -> Event? {
        let base = bytes.baseAddress!
        var event = Event()
        var sawData = false
        var data: [UInt8] = []
        var lineStart = from
        while lineStart < end {
            let stop = index(of: 10, in: base, from: lineStart, to: end)
            let colon = index(of: 58, in: base, from: lineStart, to: stop)
            var valueStart = min(colon + 1, stop)
            if valueStart < stop, base[valueStart] == 32 { valueStart += 1 }
            let value = UnsafeBufferPointer(start: base + valueStart, count: stop - valueStart)
            if colon > lineStart {
                let field = UnsafeBufferPointer(start: base + lineStart, count: colon - lineStart)
                if field.elementsEqual(dataField) {
                    if sawData { data.append(10) } else { data.reserveCapacity(end - from) }
                    data.append(contentsOf: value)
                    sawData = true
                } else if field.elementsEqual(eventField) {
                    event.name = String(decoding: value, as: UTF8.self)
                } else if field.elementsEqual(idField) {
                    event.id = String(decoding: value, as: UTF8.self)
                }
            }
            lineStart = stop + 1
        }
        guard sawData else { return nil }
        event.data = data
        return event
    }

    /// The index of the first `byte` in `base[from..<end]`, or `end`.
    private static func index(of byte: UInt8, in base: UnsafePointer<UInt8>, from: Int, to end: Int) -> Int {
        guard from < end, let hit = memchr(base + from, Int32(byte), end - from) else { return end }
        return base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
    }

    /// The most room a parsed-out buffer keeps (an idle stream's heartbeats and small events fit).
    private static let keptCapacity = 4_096

    private static let eventField = Array("event".utf8)
    private static let idField = Array("id".utf8)
    private static let dataField = Array("data".utf8)

    /// Marks everything before `index` parsed.
    private mutating func consume(through index: Int) {
        start = index
        scanned = index
        if start == buffer.count {
            // A stream's buffer is kept only while small: 10,000 storm viewers each keeping the room of a 30 KB first
            // batch held 300 MB, and touching it cost the client's core 75,000 page faults (its CPU is the storm's
            // limit). Given back, the next stream's read reuses the same heap memory.
            buffer.removeAll(keepingCapacity: buffer.capacity <= Self.keptCapacity)
            start = 0
            scanned = 0
        }
    }

    /// The index of the first LF of the first blank line ("\n\n") after `start`, searching only bytes not
    /// searched before.
    private mutating func findBlankLine() -> Int? {
        let count = buffer.count
        guard count - start >= 2 else { return nil }
        let from = max(start, scanned - 1)
        let found: Int? = buffer.withUnsafeBufferPointer { bytes in
            let base = bytes.baseAddress!
            var index = from
            while index < count - 1 {
                index = Self.index(of: 10, in: base, from: index, to: count - 1)
                if index >= count - 1 { return nil }
                if base[index + 1] == 10 { return index }
                index += 1
            }
            return nil
        }
        if found == nil { scanned = count }
        return found
    }
}

/// Values the load client pulls out of event payloads without a JSON parser.
enum Payload {
    /// The string value of `"key":"..."` in a flat JSON object (no escapes expected in URLs and numbers).
    static func string(_ key: String, in json: [UInt8]) -> String? {
        guard let start = end(of: Array("\"\(key)\":\"".utf8), in: json[...]) else { return nil }
        let rest = json[start...]
        return rest.firstIndex(of: UInt8(ascii: "\"")).map { String(decoding: rest[..<$0], as: UTF8.self) }
    }

    /// The integer value of `"key":N`.
    static func integer(_ key: String, in json: [UInt8]) -> Int? {
        guard let start = end(of: Array("\"\(key)\":".utf8), in: json[...]) else { return nil }
        return number(at: start, in: json[...])
    }

    /// Every `data-index="N"` in a rows fragment, in order.
    static func rowIndices(_ html: [UInt8]) -> [Int] {
        let marker = Array("data-index=\"".utf8)
        var result: [Int] = []
        var rest = html[...]
        while let start = end(of: marker, in: rest) {
            if let value = number(at: start, in: html[...]) { result.append(value) }
            rest = html[start...]
        }
        return result
    }

    /// How many times `needle` stands in `bytes` (not overlapping).
    static func occurrences(of needle: String, in bytes: [UInt8]) -> Int {
        let marker = Array(needle.utf8)
        var count = 0
        var rest = bytes[...]
        while let start = end(of: marker, in: rest) {
            count += 1
            rest = bytes[start...]
        }
        return count
    }

    /// The index just past the first occurrence of `needle` in `bytes`.
    private static func end(of needle: [UInt8], in bytes: ArraySlice<UInt8>) -> Int? {
        var index = bytes.startIndex
        while index + needle.count <= bytes.endIndex {
            if bytes[index] == needle[0], bytes[index..<index + needle.count].elementsEqual(needle) {
                return index + needle.count
            }
            index += 1
        }
        return nil
    }

    private static func number(at start: Int, in bytes: ArraySlice<UInt8>) -> Int? {
        var value = 0
        var index = start
        while index < bytes.endIndex, bytes[index] >= 48, bytes[index] <= 57, index - start < 12 {
            value = value * 10 + Int(bytes[index] - 48)
            index += 1
        }
        return index > start ? value : nil
    }
}
