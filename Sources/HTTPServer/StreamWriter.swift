import EventLoop
import Locking

/// Thread-safe handle to one streaming response body. Any thread may call it; the server hands the work
/// to the connection's event loop, so writes from one thread arrive in order. Called on that loop (a stream's
/// first events, written by its opener), a write is made at once, with no closure allocated for it: each write
/// branches on `inEventLoop` itself, since `EventLoop.run`'s closure is made before its branch (even inlined, that
/// cost 2,600 instructions an arriving viewer, `Scripts/bench arrivals`).
///
/// Ownership: the server owns the connection. The stream ends when `finish()` is called (buffered bytes are
/// flushed, then the connection closes), when the peer disconnects, when the connection is dropped as a slow
/// consumer, or at server shutdown. `onClose` callbacks run exactly once, when it ends for any reason.
public final class StreamWriter: Sendable {
    /// What the writer hands to its sink.
    public enum Output: Sendable {
        case bytes([UInt8])
        case finish
    }

    struct State {
        var finishing = false
        var closed = false
        /// The `onClose` callbacks in order: the first here (a stream usually has one: its session's), the rest in
        /// `callbacks`, so a stream with one holds no array for it (64 bytes an idle stream).
        var firstCallback: (@Sendable () -> Void)?
        var callbacks: [@Sendable () -> Void] = []
        /// Tasks suspended in ``waitForRoom()``.
        var roomWaiters: [CheckedContinuation<Void, Never>] = []
    }

    /// Where the output goes: a caller's sink, or a connection on its event loop.
    enum Target: Sendable {
        case sink(@Sendable (Output) -> Void)
        /// The server's writers: output is applied by `connection` on `loop` (the loop is held strongly here,
        /// so a writer that outlives its server stays safe to call: its work is then dropped).
        case connection(Connection, EventLoop)
    }

    let state = Lock(State())
    let target: Target
    private let closesOnFinish: Bool
    /// How the connection codes the body: gzip streams get each write compressed (by the writing thread).
    let coding: ContentCoding

    /// A writer that passes its output to `sink` on the calling thread: for in-process tests of streaming
    /// handlers. With `closesOnFinish`, `finish()` also ends the stream (runs the `onClose` callbacks).
    public init(closesOnFinish: Bool = true, sink: @escaping @Sendable (Output) -> Void) {
        target = .sink(sink)
        self.closesOnFinish = closesOnFinish
        coding = .identity
    }

    /// A connection's writer: output is applied on the connection's loop, in call order. `coding`: the body's.
    init(connection: Connection, loop: EventLoop, coding: ContentCoding = .identity) {
        target = .connection(connection, loop)
        closesOnFinish = false
        self.coding = coding
    }

    /// Queues `bytes`. Ignored once the stream is finishing or closed. If the connection's unsent bytes then
    /// exceed its write-buffer limit, the connection is dropped (slow consumer) and the stream closes.
    /// To write the same bytes to many streams, ``broadcast(_:to:)`` is cheaper than one `write` each.
    /// A gzip-coded stream's bytes are compressed here, on the calling thread, and flushed: the client can decode
    /// them as soon as they arrive.
    public func write(_ bytes: [UInt8]) {
        write(bytes) { self.deflated($0) }
    }

    /// Queues `bytes` like ``write(_:)``: one array that many streams write (every event stream's default `retry:`
    /// field), so a gzip-coded stream looks its block up (``SharedBodyBlocks``) instead of making one per stream.
    func write(shared bytes: [UInt8]) {
        write(bytes) { bytes in
            self.coding == .gzip && !bytes.isEmpty ? SharedBodyBlocks.shared.block(for: bytes) : nil
        }
    }

    /// Queues `bytes` with the gzip block `block` gives for them (nil: an identity stream).
    private func write(_ bytes: [UInt8], block: ([UInt8]) -> DeflatedBlock?) {
        guard isOpen else { return }
        switch target {
        case .sink(let sink):
            sink(.bytes(bytes))
        case .connection(let connection, let loop):
            let block = block(bytes)
            @Sendable func write() { connection.writeShared(bytes, deflated: block) }
            if loop.inEventLoop { write() } else { loop.execute(write) }
        }
    }

    /// `bytes` as a gzip block when this stream is gzip-coded (nil otherwise, or when empty): compressed on the
    /// calling thread, so the connection's loop only writes.
    private func deflated(_ bytes: [UInt8]) -> DeflatedBlock? {
        coding == .gzip && !bytes.isEmpty ? DeflatedBlock(compressing: bytes) : nil
    }

    private func sink(_ output: Output) {
        switch target {
        case .sink(let sink):
            sink(output)
        case .connection(let connection, let loop):
            @Sendable func apply() { connection.streamOutput(output) }
            if loop.inEventLoop { apply() } else { loop.execute(apply) }
        }
    }

    /// Queues `bytes` like ``write(_:)`` and calls `notice` (on the connection's loop, or at once for a sink)
    /// when they, and everything queued before them, have been handed to the socket, with the bytes as written
    /// (their encoding and count). Not called if the stream ends first or the write is ignored. For metrics: one
    /// closure per write that asks.
    public func write(_ bytes: [UInt8], whenWritten notice: @escaping @Sendable (WrittenBytes) -> Void) {
        guard isOpen else { return }
        switch target {
        case .sink(let sink):
            sink(.bytes(bytes))
            notice(.identity(bytes))
        case .connection(let connection, let loop):
            let block = deflated(bytes)
            @Sendable func write() { connection.writeShared(bytes, deflated: block, whenWritten: notice) }
            if loop.inEventLoop { write() } else { loop.execute(write) }
        }
    }

    /// Encodes and queues one event.
    public func send(_ event: SSEEvent) { write(event.encoded()) }

    /// The connection's loop as a task executor (nil for a sink): a task the stream's opener starts preferring it
    /// comes back to the loop after it suspends (``EventLoop``'s `TaskExecutor` conformance). Thread-safe.
    package var taskExecutor: (any TaskExecutor)? {
        guard case .connection(_, let loop) = target else { return nil }
        return loop
    }

    /// Queues one event as it was framed: its head, then its body (often one array shared by many viewers' events),
    /// in one gathering send through the connection's shared-write path (no copy of the body). A gzip-coded stream's
    /// blocks are looked up or compressed here, on the calling thread: a shared body or head once for all its viewers
    /// (``FramedSSEEvent/deflatedBody``, ``FramedSSEEvent/deflatedHead``).
    public func send(_ event: FramedSSEEvent) {
        guard isOpen else { return }
        switch target {
        case .sink(let sink):
            sink(.bytes(event.bytes))
        case .connection(let connection, let loop):
            let (head, body) = coding == .gzip ? (event.deflatedHead, event.deflatedBody) : (nil, nil)
            @Sendable func write() {
                connection.writeShared(event.body, after: event.head, deflated: body, deflatedHead: head)
            }
            if loop.inEventLoop { write() } else { loop.execute(write) }
        }
    }

    /// Queues one event as ``send(_:)-(FramedSSEEvent)`` does and calls `notice` once it is written
    /// (``write(_:whenWritten:)``), with the bytes that went out for it.
    public func send(_ event: FramedSSEEvent, whenWritten notice: @escaping @Sendable (WrittenBytes) -> Void) {
        guard isOpen else { return }
        switch target {
        case .sink(let sink):
            sink(.bytes(event.bytes))
            notice(WrittenBytes(encoding: "identity", count: event.head.count + event.body.count))
        case .connection(let connection, let loop):
            let (head, body) = coding == .gzip ? (event.deflatedHead, event.deflatedBody) : (nil, nil)
            @Sendable func write() {
                connection.writeShared(event.body, after: event.head, deflated: body, deflatedHead: head,
                                       whenWritten: notice)
            }
            if loop.inEventLoop { write() } else { loop.execute(write) }
        }
    }

    /// Flushes what is queued, then ends the stream and closes the connection. Idempotent.
    public func finish() {
        let first = state.withLock { state -> Bool in
            defer { state.finishing = true }
            return !state.finishing && !state.closed
        }
        guard first else { return }
        sink(.finish)
        if closesOnFinish { close() }
    }

    /// Registers `callback` to run once when the stream ends; runs it at once (on this thread) if it has.
    public func onClose(_ callback: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state -> Bool in
            if state.closed { return true }
            if state.firstCallback == nil { state.firstCallback = callback } else { state.callbacks.append(callback) }
            return false
        }
        if runNow { callback() }
    }

    /// Whether writes are still accepted (not finishing, not closed).
    public var isOpen: Bool { state.withLock { !$0.finishing && !$0.closed } }

    /// Ends the stream from the transport side and runs the `onClose` callbacks. Idempotent.
    /// The server calls it when the connection closes; tests may call it to simulate a disconnect.
    public func close() {
        let (first, callbacks, waiters) = state.withLock {
            state -> ((@Sendable () -> Void)?, [@Sendable () -> Void], [CheckedContinuation<Void, Never>]) in
            guard !state.closed else { return (nil, [], []) }
            state.closed = true
            defer { state.firstCallback = nil; state.callbacks = []; state.roomWaiters = [] }
            return (state.firstCallback, state.callbacks, state.roomWaiters)
        }
        for waiter in waiters { waiter.resume() }
        first?()
        for callback in callbacks { callback() }
    }
}
