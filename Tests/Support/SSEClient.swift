import Foundation
import HTTPServerTesting

/// Reads a text/event-stream the way a browser does, through `SSEParser` over a `TestConnection`. Remembers the
/// last event id, as EventSource does for Last-Event-ID.
public final class SSEClient: @unchecked Sendable {
    public let connection: TestConnection
    public let status: Int
    public let headers: [String: String]
    private var parser: SSEParser
    public var lastEventID: String? { parser.lastEventID }
    public var comments: [String] { parser.comments }
    /// The last `retry:` field read, in milliseconds (a draining server writes one of its own before closing).
    public var retryMilliseconds: Int? { parser.retryMilliseconds }

    /// Opens `path`; `lastEventID` is sent as the Last-Event-ID header, as a reconnecting browser does.
    public convenience init(port: Int, path: String, lastEventID: String? = nil, timeoutSeconds: Int = 30)
        async throws
    {
        let connection = try Self.request(port: port, path: path, lastEventID: lastEventID,
                                          timeoutSeconds: timeoutSeconds)
        self.init(connection: connection, head: try await connection.readHead(), lastEventID: lastEventID)
    }

    /// The same blocking the calling thread: only for tests that run on a thread of their own (many viewers, each
    /// on a thread, read with `nextBlocking()`).
    public static func openBlocking(port: Int, path: String, lastEventID: String? = nil,
                                    timeoutSeconds: Int = 30) throws -> SSEClient {
        let connection = try request(port: port, path: path, lastEventID: lastEventID, timeoutSeconds: timeoutSeconds)
        return SSEClient(connection: connection, head: try connection.readHeadBlocking(), lastEventID: lastEventID)
    }

    private init(connection: TestConnection, head: (status: Int, headers: [String: String]), lastEventID: String?) {
        self.connection = connection
        status = head.status
        headers = head.headers
        if head.headers["transfer-encoding"]?.lowercased().contains("chunked") == true {
            connection.decodeChunkedBody()   // through a proxy (nginx) to an HTTP/1.1 client
        }
        parser = SSEParser(lastEventID: lastEventID)
    }

    /// Connects and sends the GET of `path`.
    private static func request(port: Int, path: String, lastEventID: String?, timeoutSeconds: Int) throws
        -> TestConnection
    {
        let connection = try TestConnection(port: port, timeoutSeconds: timeoutSeconds)
        var request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
        if let lastEventID { request += "Last-Event-ID: \(lastEventID)\r\n" }
        try connection.send(request + "\r\n")
        return connection
    }

    /// The next dispatched event, or nil when the stream ends. Bounded: besides each read's deadline, throws once
    /// only `heartbeat` events have come for `timeoutSeconds` (they would keep a loop waiting for an event that
    /// never comes reading for ever, each within its own deadline).
    public func next() async throws -> ReceivedEvent? {
        try noted(try await connection.readEvent(&parser))
    }

    /// `next()` blocking the calling thread: only for tests that run on a thread of their own.
    public func nextBlocking() throws -> ReceivedEvent? {
        try noted(try connection.readEventBlocking(&parser))
    }

    /// When the first of the `heartbeat` events read since the last other event came; nil after any other.
    private var heartbeatsSince: ContinuousClock.Instant?

    /// `event`, once it is checked against the heartbeat bound of `next()`.
    private func noted(_ event: ReceivedEvent?) throws -> ReceivedEvent? {
        guard let event, event.event == "heartbeat" else {
            heartbeatsSince = nil
            return event
        }
        let since = heartbeatsSince ?? .now
        heartbeatsSince = since
        guard ContinuousClock.now - since <= .seconds(connection.timeoutSeconds) else {
            throw TestConnection.Failure(description: "only heartbeat events for \(connection.timeoutSeconds) s: "
                                         + "the event this test waits for never came")
        }
        return event
    }

    /// Reads events until one named `name` (the skipped ones are returned too). Bounded in all by the connection's
    /// `timeoutSeconds`, not only per event: a stream's `heartbeat` events would keep a wait for an event that never
    /// comes going for ever.
    public func next(named name: String) async throws -> (event: ReceivedEvent, skipped: [ReceivedEvent]) {
        let deadline = ContinuousClock.now + .seconds(connection.timeoutSeconds)
        var skipped: [ReceivedEvent] = []
        while let event = try await next() {
            if event.event == name { return (event, skipped) }
            skipped.append(event)
            guard ContinuousClock.now < deadline else {
                let failure = skipped.last { $0.event.hasSuffix("error") }.map { "; its last error: \($0.data)" } ?? ""
                throw TestConnection.Failure(description: "no '\(name)' event within \(connection.timeoutSeconds) s; "
                                             + "saw \(skipped.count): \(skipped.suffix(20).map(\.event))\(failure)")
            }
        }
        throw TestConnection.Failure(description: "stream ended before a '\(name)' event; saw \(skipped.map(\.event))")
    }

    /// Reads events until the server closes the stream; returns them. Bounded in all by the connection's
    /// `timeoutSeconds` (heartbeats keep a stream that is never closed going).
    @discardableResult
    public func untilClosed() async throws -> [ReceivedEvent] {
        let deadline = ContinuousClock.now + .seconds(connection.timeoutSeconds)
        var events: [ReceivedEvent] = []
        while let event = try await next() {
            events.append(event)
            guard ContinuousClock.now < deadline else {
                throw TestConnection.Failure(description: "the server did not close the stream within "
                                             + "\(connection.timeoutSeconds) s; saw \(events.suffix(20).map(\.event))")
            }
        }
        return events
    }
}

/// The `data-key` values of the `<tr>`s in a rows fragment, in order.
public func rowKeys(_ html: String) -> [String] {
    var keys: [String] = []
    var rest = html[...]
    while let range = rest.range(of: "data-key=\"") {
        let after = rest[range.upperBound...]
        guard let end = after.firstIndex(of: "\"") else { break }
        keys.append(String(after[..<end]))
        rest = after[end...]
    }
    return keys
}

/// The `data-index` values of the rows in a fragment, in order (section header rows carry none).
public func rowIndexes(_ html: String) -> [Int] {
    html.components(separatedBy: "data-index=\"").dropFirst().compactMap { Int($0.prefix { $0 != "\"" }) }
}

extension TestConnection {
    /// The next event `parser` dispatches from this connection's lines, or nil when the stream ends. Comments
    /// (heartbeats) in between are skipped (and kept in `parser.comments`). Bounded: throws when no event has come
    /// within `timeoutSeconds` (a stream that only sends `: ping` never times out a single read).
    public func readEvent(_ parser: inout SSEParser) async throws -> ReceivedEvent? {
        let deadline = ContinuousClock.now + .seconds(timeoutSeconds)
        while let line = try await readLine() {
            if let event = parser.feed(line[...]) { return event }
            try checkEventDeadline(deadline, parser)
        }
        return nil
    }

    /// `readEvent(_:)` blocking the calling thread: only for tests that run on a thread of their own.
    public func readEventBlocking(_ parser: inout SSEParser) throws -> ReceivedEvent? {
        let deadline = ContinuousClock.now + .seconds(timeoutSeconds)
        while let line = try readLineBlocking() {
            if let event = parser.feed(line[...]) { return event }
            try checkEventDeadline(deadline, parser)
        }
        return nil
    }

    private func checkEventDeadline(_ deadline: ContinuousClock.Instant, _ parser: SSEParser) throws {
        guard ContinuousClock.now < deadline else {
            throw Failure(description: "no event within \(timeoutSeconds) s (only \(parser.comments.count) comments)")
        }
    }
}
