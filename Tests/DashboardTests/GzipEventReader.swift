import HTTPServerTesting
import TestSupport

/// Reads a gzip-coded event stream as a browser does: decodes the bytes as they arrive (zlib) and parses the
/// events out of them. Blocking: use on a thread of its own (`offPool`). Bounded by the client's timeout per read,
/// and each `next(named:)` by it in all (heartbeats would keep a wait for an event that never comes going).
struct GzipEventReader {
    let client: TestConnection
    private let decoder = GzipDecoder()
    private var parser = SSEParser()
    private var pending: [UInt8] = []
    private var events: [ReceivedEvent] = []

    init(client: TestConnection) { self.client = client }

    /// The next event named `name`, and the events before it.
    mutating func next(named name: String) throws -> (event: ReceivedEvent, skipped: [ReceivedEvent]) {
        let deadline = ContinuousClock.now + .seconds(client.timeoutSeconds)
        while true {
            if let index = events.firstIndex(where: { $0.event == name }) {
                let skipped = Array(events[..<index])
                let event = events[index]
                events.removeFirst(index + 1)
                return (event, skipped)
            }
            guard ContinuousClock.now < deadline else {
                throw TestConnection.Failure(description: "no '\(name)' event within \(client.timeoutSeconds) s")
            }
            let bytes = try client.readAvailableBlocking()
            guard !bytes.isEmpty else { throw TestConnection.Failure(description: "stream ended before \(name)") }
            pending += try decoder.feed(bytes)
            while let newline = pending.firstIndex(of: 10) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                if let event = parser.feed(Substring(line)) { events.append(event) }
            }
        }
    }
}
