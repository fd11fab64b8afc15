/// One event's wire bytes, written once, in two parts: its ``head`` (the `event:`, `id:` and `retry:` lines and the
/// first `data: `) and its ``body`` (its data framed as `data:` lines while the data was written, each line break as
/// ``SSEEvent/dataLineBreak``, and the blank line that ends it). The body can be one array shared by many viewers'
/// events (a batch many viewers get at the same place), each with its own head; ``StreamWriter/send(_:)-(FramedSSEEvent)``
/// writes both in one gathering send through the connections' shared-write path. A stream that tags events (a
/// dashboard page's) writes ``retagged(event:id:)``, a new head before the same body. A batch's `rows` event is a
/// holder: its writer renders and ends the body (``appendEnd(to:)``), the event makes only its own head.
///
/// Thread-safe: a value type.
public struct FramedSSEEvent: Sendable {
    /// The event type written (nil: none, the browser's `message`).
    public let event: String?
    /// The id written (nil: none).
    public let id: String?
    /// The event's own lines, up to and with the first `data: `.
    public let head: [UInt8]
    /// The data lines after the first `data: ` and the blank line that ends the event (shareable).
    public let body: [UInt8]
    /// True when ``body`` was given, perhaps one array many events share (``init(event:id:retry:body:)``), false
    /// when this event wrote it: a gzip-coded stream then looks the body's block up (``SharedBodyBlocks``) instead of
    /// compressing it for every viewer.
    let bodyIsShared: Bool
    /// True when ``head`` is one array many events share (``withSharedHead()``): a gzip-coded stream looks its block
    /// up too.
    private(set) var headIsShared = false
    /// Set when ``body`` is fixed parts around this event's own text (``init(headOf:splicing:with:)``): a gzip-coded
    /// stream joins the parts' blocks, compressed once, with that text stored.
    private var splicedParts: SplicedBodyParts?

    /// The event on the wire.
    public var bytes: [UInt8] { head + body }

    /// An event whose data `writeData` appends to the buffer it is given, writing every line break in it as
    /// ``SSEEvent/dataLineBreak`` (the renderer's `lineBreak`) and no other CR or LF. `capacity`: the bytes
    /// expected, reserved at once. `retry`: as ``SSEEvent/retry``.
    public init(event: String?, id: String?, retry: Int? = nil, capacity: Int = 0,
                writeData: (inout [UInt8]) -> Void) {
        var body: [UInt8] = []
        body.reserveCapacity(capacity + 2)
        writeData(&body)
        SSEEvent.appendEnd(into: &body)
        self.init(event: event, id: id, retry: retry, body: body, shared: false)
    }

    /// An event whose body is `body` as it is: data lines framed by its writer and ended (``appendEnd(to:)``),
    /// perhaps one array many events share. Only the head is made here.
    public init(event: String?, id: String?, retry: Int? = nil, body: [UInt8]) {
        self.init(event: event, id: id, retry: retry, body: body, shared: true)
    }

    private init(event: String?, id: String?, retry: Int?, body: [UInt8], shared: Bool) {
        self.event = event
        self.id = id
        var head: [UInt8] = []
        head.reserveCapacity(32 + (event?.utf8.count ?? 0) + (id?.utf8.count ?? 0))
        SSEEvent.appendHead(event: event, id: id, retry: retry, into: &head)
        self.head = head
        self.body = body
        bodyIsShared = shared
    }

    /// An event with `template`'s type, id and head (the very array, shared) before a body of `parts` with `text`
    /// between each two: a viewer's `session` event, the same for every viewer but for its session id. The parts are
    /// data lines framed, the last one ended (``appendEnd(to:)``); `text` holds no line break.
    package init(headOf template: FramedSSEEvent, splicing parts: SplicedBodyParts, with text: String) {
        event = template.event
        id = template.id
        head = template.head
        body = parts.body(with: text)
        bodyIsShared = false
        headIsShared = true
        splicedParts = parts
    }

    /// The same event, its head marked shared: every stream that gets it gets this very array (a batch's `rows`
    /// event kept for the viewers who come next, a `loading` event made once), so a gzip-coded stream compresses it
    /// once too (``SharedBodyBlocks``).
    package func withSharedHead() -> FramedSSEEvent {
        var event = self
        event.headIsShared = true
        return event
    }

    /// `event` framed (its data's line breaks split into `data:` lines, as ``SSEEvent/encoded()`` does).
    public init(_ event: SSEEvent) {
        self.init(event: event.event, id: event.id, retry: event.retry, capacity: event.dataBytes.count) { data in
            SSEEvent.appendFramed(event.dataBytes, into: &data)
        }
    }

    /// Ends an event's body: the last `data:` line and the blank line that ends the event. A writer that frames its
    /// data itself (a batch's rendered rows, each line break as ``SSEEvent/dataLineBreak``) ends the body with it
    /// before the event holds it (``init(event:id:retry:body:)``).
    public static func appendEnd(to body: inout [UInt8]) {
        SSEEvent.appendEnd(into: &body)
    }

    /// Appends one event, framed the same way, to `buffer` (several events written back to back, e.g. a live
    /// table's changes broadcast to every viewer).
    public static func append(event: String?, to buffer: inout [UInt8], writeData: (inout [UInt8]) -> Void) {
        SSEEvent.appendHead(event: event, id: nil, retry: nil, into: &buffer)
        writeData(&buffer)
        SSEEvent.appendEnd(into: &buffer)
    }

    /// The same event with another type and id (and no `retry:`): a new head before this event's body, the same
    /// array.
    public func retagged(event: String?, id: String?) -> FramedSSEEvent {
        FramedSSEEvent(event: event, id: id, retry: nil, body: body, shared: bodyIsShared)
    }

    /// The gzip block of ``body`` for a gzip-coded stream: a shared body's kept block (compressed once for all its
    /// viewers), a spliced body's parts joined with its own text, an own body's compressed now. Call on the sending
    /// thread, not an event loop.
    var deflatedBody: DeflatedBlock {
        if let splicedParts { return splicedParts.deflated(of: body) }
        return bodyIsShared ? SharedBodyBlocks.shared.block(for: body) : DeflatedBlock(compressing: body)
    }

    /// The gzip block of ``head`` (nil when empty), kept like a shared body's when the head is shared.
    var deflatedHead: DeflatedBlock? {
        if head.isEmpty { return nil }
        return headIsShared ? SharedBodyBlocks.shared.block(for: head) : DeflatedBlock(compressing: head)
    }
}
