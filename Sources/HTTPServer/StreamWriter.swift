import Synchronization

/// Thread-safe handle to one streaming response body. Any thread may call it; the server hands the work
/// to the connection's event loop, so writes from one thread arrive in order.
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

    private struct State {
        var finishing = false
        var closed = false
        var callbacks: [@Sendable () -> Void] = []
    }

    /// Where the output goes: a caller's sink, or a connection on its event loop.
    enum Target: Sendable {
        case sink(@Sendable (Output) -> Void)
        /// The server's writers: output is applied by `connection` on `loop` (the loop is held strongly here,
        /// so a writer that outlives its server stays safe to call: its work is then dropped).
        case connection(Connection, EventLoop)
    }

    private let state = Mutex(State())
    let target: Target
    private let closesOnFinish: Bool

    /// A writer that passes its output to `sink` on the calling thread: for in-process tests of streaming
    /// handlers. With `closesOnFinish`, `finish()` also ends the stream (runs the `onClose` callbacks).
    public init(closesOnFinish: Bool = true, sink: @escaping @Sendable (Output) -> Void) {
        target = .sink(sink)
        self.closesOnFinish = closesOnFinish
    }

    /// A connection's writer: output is applied on the connection's loop, in call order.
    init(connection: Connection, loop: EventLoop) {
        target = .connection(connection, loop)
        closesOnFinish = false
    }

    /// Queues `bytes`. Ignored once the stream is finishing or closed. If the connection's unsent bytes then
    /// exceed its write-buffer limit, the connection is dropped (slow consumer) and the stream closes.
    /// To write the same bytes to many streams, ``broadcast(_:to:)`` is cheaper than one `write` each.
    public func write(_ bytes: [UInt8]) {
        guard isOpen else { return }
        sink(.bytes(bytes))
    }

    private func sink(_ output: Output) {
        switch target {
        case .sink(let sink):
            sink(output)
        case .connection(let connection, let loop):
            if loop.inEventLoop {
                connection.streamOutput(output)
            } else {
                loop.execute { connection.streamOutput(output) }
            }
        }
    }

    /// Encodes and queues one event.
    public func send(_ event: SSEEvent) { write(event.encoded()) }

    /// Queues one event as it was framed: its head, then its body (often one array shared by many viewers' events),
    /// in one gathering send through the connection's shared-write path (no copy of the body).
    public func send(_ event: FramedSSEEvent) {
        guard isOpen else { return }
        switch target {
        case .sink(let sink):
            sink(.bytes(event.bytes))
        case .connection(let connection, let loop):
            if loop.inEventLoop {
                connection.writeShared(event.body, after: event.head)
            } else {
                loop.execute { connection.writeShared(event.body, after: event.head) }
            }
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
            state.callbacks.append(callback)
            return false
        }
        if runNow { callback() }
    }

    /// Whether writes are still accepted (not finishing, not closed).
    public var isOpen: Bool { state.withLock { !$0.finishing && !$0.closed } }

    /// Ends the stream from the transport side and runs the `onClose` callbacks. Idempotent.
    /// The server calls it when the connection closes; tests may call it to simulate a disconnect.
    public func close() {
        let callbacks = state.withLock { state -> [@Sendable () -> Void] in
            guard !state.closed else { return [] }
            state.closed = true
            defer { state.callbacks = [] }
            return state.callbacks
        }
        for callback in callbacks { callback() }
    }
}
