/// Incremental reader of one HTTP response carrying a text/event-stream: the status from the head, then each
/// event (`event`, `data`, `id`) once its blank line arrives. The server writes LF line ends.
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

    mutating func append(_ bytes: UnsafeRawBufferPointer) { buffer.append(contentsOf: bytes) }

    /// The next complete event (parsing the head first); nil when more bytes are needed.
    mutating func next() -> Event? {
        if status == nil {
            guard let end = find([13, 10, 13, 10]) else { return nil }
            let line = String(decoding: buffer[0..<min(end, 64)], as: UTF8.self)
            status = line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
            buffer.removeFirst(end + 4)
        }
        while let end = find([10, 10]) {
            var event = Event()
            var sawData = false
            var data: [UInt8] = []
            var start = 0
            while start < end {  // one pass over the block's bytes, line by line
                let stop = buffer[start..<end].firstIndex(of: 10) ?? end
                let line = buffer[start..<stop]
                if line.starts(with: Self.eventPrefix) {
                    event.name = String(decoding: line.dropFirst(Self.eventPrefix.count), as: UTF8.self)
                } else if line.starts(with: Self.idPrefix) {
                    event.id = String(decoding: line.dropFirst(Self.idPrefix.count), as: UTF8.self)
                } else if line.starts(with: Self.dataPrefix) {
                    if sawData { data.append(10) }
                    data += line.dropFirst(Self.dataPrefix.count)
                    sawData = true
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

    private static let eventPrefix = Array("event: ".utf8)
    private static let idPrefix = Array("id: ".utf8)
    private static let dataPrefix = Array("data: ".utf8)

    /// The first index of `needle`, scanning only bytes not scanned before (the buffer only grows at its end
    /// between removals, which reset the mark).
    private mutating func find(_ needle: [UInt8]) -> Int? {
        guard buffer.count >= needle.count else { return nil }
        var index = max(0, scanned - needle.count + 1)
        while index <= buffer.count - needle.count {
            if buffer[index] == needle[0], buffer[index..<index + needle.count].elementsEqual(needle) {
                scanned = 0
                return index
            }
            index += 1
        }
        scanned = buffer.count
        return nil
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
