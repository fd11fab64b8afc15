import HTTPServer
import Locking

/// A streaming response body read in-process: the handler writes to an in-memory ``StreamWriter`` (no socket,
/// no event loop) and the test reads its bytes, lines or SSE events in order.
///
/// Every read is bounded (`timeout`, 30 s unless told): a stream that stops sending fails the read instead of
/// hanging the test. ``close()`` ends the stream from the client side, as a hang-up would: the handler's `onClose`
/// callbacks run. Thread-safe: the writer may be called from any thread; reads are meant for one task at a time.
public final class InProcessStream: Sendable {
    /// Why a read failed.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    private struct State {
        var chunks: [[UInt8]] = []
        var finished = false
        var waiter: CheckedContinuation<Void, Never>?
        /// Bytes taken from `chunks` that do not yet make a whole line.
        var partial: [UInt8] = []
        var parser = SSEParser()
    }

    /// The shared state, in a box the writer's sink can hold.
    private final class Box: Sendable {
        let state = Lock(State())
    }

    /// The writer the handler was opened with.
    public let writer: StreamWriter
    private let box: Box

    init() {
        let box = Box()
        self.box = box
        writer = StreamWriter { output in
            let waiter = box.state.withLock { state -> CheckedContinuation<Void, Never>? in
                switch output {
                case .bytes(let bytes): state.chunks.append(bytes)
                case .finish: state.finished = true
                }
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume()
        }
    }

    /// Whether the handler has finished the stream (or the client closed it).
    public var isFinished: Bool { box.state.withLock { $0.finished } }

    /// Ends the stream from the client side (a disconnect): later writes are dropped, `onClose` callbacks run.
    public func close() {
        writer.close()
        let waiter = box.state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.finished = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// The next line (without its `\n` or `\r\n`), or nil once the stream has ended. Throws after `timeout`.
    public func nextLine(timeout: Duration = .seconds(30)) async throws -> String? {
        let deadline = ContinuousClock.now + timeout
        while true {
            let line = box.state.withLock { state -> String?? in
                while !state.chunks.isEmpty { state.partial += state.chunks.removeFirst() }
                if let end = state.partial.firstIndex(of: UInt8(ascii: "\n")) {
                    var line = state.partial[..<end]
                    if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
                    let text = String(decoding: line, as: UTF8.self)
                    state.partial.removeSubrange(...end)
                    return .some(text)
                }
                return state.finished ? .some(nil) : nil
            }
            if let line { return line }
            try await waitForOutput(until: deadline, timeout: timeout)
        }
    }

    /// The next SSE event (comments skipped), or nil once the stream has ended. Throws after `timeout`.
    public func nextEvent(timeout: Duration = .seconds(30)) async throws -> ReceivedEvent? {
        let deadline = ContinuousClock.now + timeout
        while let line = try await nextLine(timeout: deadline - .now) {
            if let event = box.state.withLock({ $0.parser.feed(line[...]) }) { return event }
        }
        return nil
    }

    /// The next event named `name`, and the events skipped before it. Throws when the stream ends first.
    public func next(named name: String, timeout: Duration = .seconds(30)) async throws
        -> (event: ReceivedEvent, skipped: [ReceivedEvent])
    {
        let deadline = ContinuousClock.now + timeout
        var skipped: [ReceivedEvent] = []
        while let event = try await nextEvent(timeout: deadline - .now) {
            if event.event == name { return (event, skipped) }
            skipped.append(event)
        }
        throw Failure(description: "the stream ended before a \"\(name)\" event (skipped: \(skipped.map(\.event)))")
    }

    /// The first `count` events (fewer when the stream ends first). Throws after `timeout` in all.
    public func events(_ count: Int, timeout: Duration = .seconds(30)) async throws -> [ReceivedEvent] {
        let deadline = ContinuousClock.now + timeout
        var events: [ReceivedEvent] = []
        while events.count < count, let event = try await nextEvent(timeout: deadline - .now) { events.append(event) }
        return events
    }

    /// Every remaining byte, once the handler finishes the stream. Throws after `timeout`.
    public func readToEnd(timeout: Duration = .seconds(30)) async throws -> [UInt8] {
        let deadline = ContinuousClock.now + timeout
        while true {
            let all = box.state.withLock { state -> [UInt8]? in
                // Output so far moves to `partial`, so the wait below sleeps until more comes (not a busy loop).
                while !state.chunks.isEmpty { state.partial += state.chunks.removeFirst() }
                guard state.finished else { return nil }
                defer { state.partial = [] }
                return state.partial
            }
            if let all { return all }
            try await waitForOutput(until: deadline, timeout: timeout)
        }
    }

    /// Waits until the writer produces something or `deadline` passes (then throws).
    private func waitForOutput(until deadline: ContinuousClock.Instant, timeout: Duration) async throws {
        guard ContinuousClock.now < deadline else {
            throw Failure(description: "no output within \(timeout)")
        }
        // A timer wakes the waiter at the deadline, so the wait is bounded even if the handler never writes.
        let timer = Task { [weak self] in
            try? await Task.sleep(until: deadline, clock: .continuous)
            self?.wake()
        }
        defer { timer.cancel() }
        await withCheckedContinuation { continuation in
            let ready = box.state.withLock { state -> Bool in
                if !state.chunks.isEmpty || state.finished { return true }
                state.waiter = continuation
                return false
            }
            if ready { continuation.resume() }
        }
    }

    private func wake() {
        let waiter = box.state.withLock { state -> CheckedContinuation<Void, Never>? in
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }
}
