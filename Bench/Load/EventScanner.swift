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

    private var buffer: [UInt8] = []
    private var scanned = 0
    private(set) var status: Int?
    /// The last byte appended was a CR: an LF that starts the next read belongs to it.
    private var afterCR = false

    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty else { return }
        if !afterCR, memchr(bytes.baseAddress!, 13, bytes.count) == nil {  // the common case: no CR at all
            buffer.append(contentsOf: bytes)
            return
        }
        for byte in bytes {
            if byte == 13 {
                buffer.append(10)
                afterCR = true
            } else {
                if !(byte == 10 && afterCR) { buffer.append(byte) }
                afterCR = false
            }
        }
    }

    /// The next complete event (parsing the head first); nil when more bytes are needed.
    mutating func next() -> Event? {
        if status == nil {
            guard let end = find([10, 10]) else { return nil }
            let line = String(decoding: buffer[0..<min(end, 64)], as: UTF8.self)
            status = line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
            buffer.removeFirst(end + 2)
        }
        while let end = find([10, 10]) {
            var event = Event()
            var sawData = false
            var data: [UInt8] = []
            var start = 0
            while start < end {  // one pass over the block's bytes, line by line: `field: value` or `field:value`
                let stop = buffer[start..<end].firstIndex(of: 10) ?? end
                let line = buffer[start..<stop]
                let colon = line.firstIndex(of: 58) ?? stop
                var value = line[min(colon + 1, stop)...]
                if value.first == 32 { value = value.dropFirst() }
                if colon > start {  // a line starting with ':' is a comment
                    if line[start..<colon].elementsEqual(Self.eventField) {
                        event.name = String(decoding: value, as: UTF8.self)
                    } else if line[start..<colon].elementsEqual(Self.idField) {
                        event.id = String(decoding: value, as: UTF8.self)
                    } else if line[start..<colon].elementsEqual(Self.dataField) {
                        if sawData { data.append(10) }
                        data += value
                        sawData = true
                    }
                }
                start = stop + 1
            }
            buffer.removeFirst(end + 2)
            if sawData {  // comments (": ping") and retry-only blocks are skipped
                event.data = data
                return event
            }
        }
        return nil
    }

    private static let eventField = Array("event".utf8)
    private static let idField = Array("id".utf8)
    private static let dataField = Array("data".utf8)

    /// The first index of `needle`, scanning only bytes not scanned before (the buffer only grows at its end
    /// between removals, which reset the mark).
    private mutating func find(_ needle: [UInt8]) -> Int? {
        guard buffer.count >= needle.count else { return nil }
        let from = max(0, scanned - needle.count + 1)
        let found: Int? = buffer.withUnsafeBufferPointer { bytes in
            var index = from
            while index <= bytes.count - needle.count {
                guard let hit = memchr(bytes.baseAddress! + index, Int32(needle[0]), bytes.count - needle.count + 1 - index)
                else { return nil }
                index = bytes.baseAddress!.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                if (1..<needle.count).allSatisfy({ bytes[index + $0] == needle[$0] }) { return index }
                index += 1
            }
            return nil
        }
        scanned = found == nil ? buffer.count : 0
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
