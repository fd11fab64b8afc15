/// One Server-Sent Event, framed per the WHATWG HTML "server-sent events" event-stream format.
///
/// - `data` is split on `\r\n`, `\r` and `\n`; each line becomes its own `data:` line, so any text round-trips:
///   the data is written after `data: `, each line break as ``dataLineBreak``, then LF. A writer that produces the
///   data itself (rendered rows) frames it the same way as it writes, into a ``FramedSSEEvent``.
/// - `event` and `id` cannot hold line breaks: CR, LF (and NUL, which makes browsers ignore an `id`) are
///   **stripped**. An empty `event` is omitted (the browser's default type is `message`).
/// - `retry` is written only when non-negative.
/// - The event ends with a blank line.
///
/// Thread-safe: a value type.
public struct SSEEvent: Sendable, Hashable {
    public var event: String?
    public var id: String?
    /// The data as UTF-8 bytes (rendered rows go in as the renderer wrote them, with no `String` between).
    public var dataBytes: [UInt8]
    public var retry: Int?

    /// The data as text.
    public var data: String {
        get { String(decoding: dataBytes, as: UTF8.self) }
        set { dataBytes = Array(newValue.utf8) }
    }

    public init(event: String? = nil, id: String? = nil, data: String, retry: Int? = nil) {
        self.init(event: event, id: id, dataBytes: Array(data.utf8), retry: retry)
    }

    /// An event whose data is `dataBytes` (UTF-8).
    public init(event: String? = nil, id: String? = nil, dataBytes: [UInt8], retry: Int? = nil) {
        self.event = event
        self.id = id
        self.dataBytes = dataBytes
        self.retry = retry
    }

    /// The wire bytes of this event.
    public func encoded() -> [UInt8] {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(dataBytes.count + 32)
        encode(into: &buffer)
        return buffer
    }

    /// Appends the wire bytes of this event to `buffer`.
    public func encode(into buffer: inout [UInt8]) {
        Self.appendHead(event: event, id: id, retry: retry, into: &buffer)
        Self.appendFramed(dataBytes, into: &buffer)
        Self.appendEnd(into: &buffer)
    }

    /// A line break inside an event's data as it goes on the wire: the `data:` line ends and the next begins.
    public static let dataLineBreak: StaticString = "\ndata: "

    /// Appends the fields before the data (`event:`, `id:`, `retry:`) and the first `data: `.
    static func appendHead(event: String?, id: String?, retry: Int?, into buffer: inout [UInt8]) {
        if let event, event.utf8.contains(where: { !isLineBreakOrNUL($0) }) {
            field("event", singleLine: event, into: &buffer)
        }
        if let id { field("id", singleLine: id, into: &buffer) }
        if let retry, retry >= 0 { field("retry", Array(String(retry).utf8), into: &buffer) }
        buffer.append(contentsOf: "data: ".utf8)
    }

    /// Ends the last `data:` line and the event (a blank line).
    static func appendEnd(into buffer: inout [UInt8]) {
        buffer.append(lf)
        buffer.append(lf)
    }

    /// Appends `data`, each line break (CRLF, CR, LF) as ``dataLineBreak``.
    static func appendFramed(_ data: [UInt8], into buffer: inout [UInt8]) {
        var first = true
        forEachLine(of: data) { line in
            if !first { buffer.append(contentsOf: UnsafeBufferPointer(start: dataLineBreak.utf8Start, count: dataLineBreak.utf8CodeUnitCount)) }
            first = false
            buffer.append(contentsOf: line)
        }
    }

    /// An SSE comment (`: text`), e.g. a heartbeat; line breaks become separate comment lines.
    public static func comment(_ text: String) -> [UInt8] {
        var buffer: [UInt8] = []
        forEachLine(of: Array(text.utf8)) { line in
            buffer.append(contentsOf: ": ".utf8)
            buffer.append(contentsOf: line)
            buffer.append(lf)
        }
        buffer.append(lf)
        return buffer
    }

    private static let lf = UInt8(ascii: "\n")
    private static let cr = UInt8(ascii: "\r")

    private static func field(_ name: String, _ value: [UInt8], into buffer: inout [UInt8]) {
        buffer.append(contentsOf: name.utf8)
        buffer.append(contentsOf: ": ".utf8)
        buffer.append(contentsOf: value)
        buffer.append(lf)
    }

    /// `name: text` on one line: `text` without its CR, LF and NUL bytes, appended as it is when it has none (an
    /// event's name and id usually: no array made for them).
    private static func field(_ name: String, singleLine text: String, into buffer: inout [UInt8]) {
        buffer.append(contentsOf: name.utf8)
        buffer.append(contentsOf: ": ".utf8)
        if text.utf8.contains(where: isLineBreakOrNUL) {
            for byte in text.utf8 where !isLineBreakOrNUL(byte) { buffer.append(byte) }
        } else {
            buffer.append(contentsOf: text.utf8)
        }
        buffer.append(lf)
    }

    private static func isLineBreakOrNUL(_ byte: UInt8) -> Bool { byte == cr || byte == lf || byte == 0 }

    /// Calls `body` for each line of `bytes`, splitting on CRLF, CR and LF; always at least one line.
    private static func forEachLine(of bytes: [UInt8], _ body: (ArraySlice<UInt8>) -> Void) {
        var start = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == lf || byte == cr {
                body(bytes[start..<index])
                index += (byte == cr && index + 1 < bytes.count && bytes[index + 1] == lf) ? 2 : 1
                start = index
            } else {
                index += 1
            }
        }
        body(bytes[start..<bytes.count])
    }
}
