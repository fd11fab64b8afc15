/// An event as the WHATWG event-stream parser dispatches it.
public struct ReceivedEvent: Equatable, Sendable {
    public var event: String
    public var data: String
    public var id: String?

    public init(event: String, data: String, id: String?) {
        self.event = event
        self.data = data
        self.id = id
    }
}

/// The WHATWG event-stream parser as a value, fed one line at a time (without its line terminator): fields
/// `event`, `data`, `id` and `retry`; comment lines (`: ping` heartbeats) are collected and may appear anywhere,
/// between events or inside one. The one parser every test that reads a stream goes through (`SSEClient`,
/// `TestConnection.readEvent`, `InProcessStream`), so no test breaks on a heartbeat it did not expect.
public struct SSEParser: Sendable {
    /// The last `id` field seen, as EventSource keeps it for Last-Event-ID.
    public private(set) var lastEventID: String?
    /// The last valid `retry` field, in milliseconds.
    public private(set) var retryMilliseconds: Int?
    /// Comment lines seen so far, without the leading colon.
    public private(set) var comments: [String] = []

    private var event = ""
    private var dataLines: [String] = []
    private var id: String?

    public init(lastEventID: String? = nil) {
        self.lastEventID = lastEventID
    }

    /// Feeds one line; returns the event a blank line dispatches, if any (a blank line after no data dispatches
    /// nothing, as in a browser).
    public mutating func feed(_ line: Substring) -> ReceivedEvent? {
        if line.isEmpty { return dispatch() }
        if line.first == ":" {
            comments.append(String(line.dropFirst()))
            return nil
        }
        let (field, value) = Self.split(line)
        switch field {
        case "event": event = value
        case "data": dataLines.append(value)
        case "id" where !value.contains("\0"): id = value
        case "retry": if let number = Int(value), value.allSatisfy(\.isASCII) { retryMilliseconds = number }
        default: break
        }
        return nil
    }

    private mutating func dispatch() -> ReceivedEvent? {
        defer {
            event = ""
            dataLines = []
            id = nil
        }
        if let id { lastEventID = id }
        guard !dataLines.isEmpty else { return nil }
        return ReceivedEvent(event: event.isEmpty ? "message" : event, data: dataLines.joined(separator: "\n"), id: id)
    }

    private static func split(_ line: Substring) -> (Substring, String) {
        guard let colon = line.firstIndex(of: ":") else { return (line, "") }
        var value = line[line.index(after: colon)...]
        if value.first == " " { value = value.dropFirst() }
        return (line[..<colon], String(value))
    }
}
