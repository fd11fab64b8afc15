/// One event's wire bytes, written once: its `event:` and `id:` lines, its data framed as `data:` lines while the
/// data was written (each line break as ``SSEEvent/dataLineBreak``), and the blank line that ends it. A stream
/// writes ``bytes`` as they are; a stream that tags events (a dashboard page's) writes ``retagged(event:id:)``, a
/// new head before the same data lines.
///
/// Thread-safe: a value type.
public struct FramedSSEEvent: Sendable {
    /// The event type written (nil: none, the browser's `message`).
    public let event: String?
    /// The id written (nil: none).
    public let id: String?
    /// The event on the wire.
    public let bytes: [UInt8]
    /// Where the data (after the first `data: `) starts in ``bytes``.
    private let dataStart: Int

    /// An event whose data `writeData` appends to the buffer it is given, writing every line break in it as
    /// ``SSEEvent/dataLineBreak`` (the renderer's `lineBreak`) and no other CR or LF. `capacity`: the bytes
    /// expected, reserved at once. `retry`: as ``SSEEvent/retry``.
    public init(event: String?, id: String?, retry: Int? = nil, capacity: Int = 0,
                writeData: (inout [UInt8]) -> Void) {
        self.event = event
        self.id = id
        var bytes: [UInt8] = []
        bytes.reserveCapacity(capacity + 64 + (id?.utf8.count ?? 0))
        SSEEvent.appendHead(event: event, id: id, retry: retry, into: &bytes)
        dataStart = bytes.count
        writeData(&bytes)
        SSEEvent.appendEnd(into: &bytes)
        self.bytes = bytes
    }

    /// `event` framed (its data's line breaks split into `data:` lines, as ``SSEEvent/encoded()`` does).
    public init(_ event: SSEEvent) {
        self.init(event: event.event, id: event.id, retry: event.retry, capacity: event.dataBytes.count) { data in
            SSEEvent.appendFramed(event.dataBytes, into: &data)
        }
    }

    /// Appends one event, framed the same way, to `buffer` (several events written back to back, e.g. a live
    /// table's changes broadcast to every viewer).
    public static func append(event: String?, to buffer: inout [UInt8], writeData: (inout [UInt8]) -> Void) {
        SSEEvent.appendHead(event: event, id: nil, retry: nil, into: &buffer)
        writeData(&buffer)
        SSEEvent.appendEnd(into: &buffer)
    }

    /// The same event with another type and id (and no `retry:`): a new head, then this event's data lines as
    /// they are.
    public func retagged(event: String?, id: String?) -> [UInt8] {
        var tagged: [UInt8] = []
        tagged.reserveCapacity(bytes.count - dataStart + 64 + (event?.utf8.count ?? 0) + (id?.utf8.count ?? 0))
        SSEEvent.appendHead(event: event, id: id, retry: nil, into: &tagged)
        tagged.append(contentsOf: bytes[dataStart...])
        return tagged
    }
}
