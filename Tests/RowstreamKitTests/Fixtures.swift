import Foundation
import HTTPServerTesting
import RowstreamKit
import RowstreamTesting
import Locking
import TestSupport

/// A person of the in-memory directory the tests serve.
struct Person: Sendable {
    let id: Int
    let name: String
    let joined: Date
    let homepage: String
    let status: String
    let seats: Int
}

/// `count` people; a few carry markup and a `javascript:` link on purpose.
func people(_ count: Int) -> [Person] {
    (1...max(count, 1)).prefix(count).map { id in
        Person(
            id: id,
            name: id == 3 ? "<b>Bold</b> & co" : "Person \(id)",
            joined: Date(timeIntervalSince1970: TimeInterval(86_400 * id)),
            homepage: id == 4 ? "javascript:alert(1)" : "https://example.com/\(id)",
            status: id % 2 == 0 ? "active" : "Trial period",
            seats: 1_000 * id
        )
    }
}

/// The people table's columns and row template, over `source`.
func peopleTable<Token>(_ source: BatchSource<Person, Token>, name: String = "people", batchSize: Int = 10)
    -> TableBinding
{
    TableBinding(
        name: name, title: "People <&>",
        columns: [
            TableColumn("Name"), TableColumn("Joined", format: .date, width: "10rem"),
            TableColumn("Home", format: .link), TableColumn("Status", format: .badge),
            TableColumn("Seats", format: .number, width: "bogus;width"),
        ],
        batchSize: batchSize, source: source
    ) { person, row in
        row.key = "p\(person.id)"
        row.text(person.name)
        row.date(person.joined)
        row.link(person.homepage, label: "home \(person.id)")
        row.badge(person.status)
        row.number(person.seats)
    }
}

/// Five people as cards (a grid table) of one badge field in batches of 3: each card titled with the name, the first
/// with an image.
func peopleCards() -> TableBinding {
    TableBinding(name: "cards", title: "Cards", columns: [TableColumn("Status", format: .badge)],
                 batchSize: 3, layout: .grid, source: offsetSource(people(5), size: 3)) { person, row in
        row.key = "p\(person.id)"
        row.cardTitle = person.name
        row.cardImage = person.id == 1 ? "https://example.com/\(person.id).png" : nil
        row.badge(person.status)
    }
}

/// 20 people in batches of 10 whose second batch fails once (a retryable `LoadFailure` with `message`), then loads.
func secondBatchFailingOnce(_ message: String) -> BatchSource<Person, Int> {
    let everyone = people(20)
    let failed = Lock(false)
    return BatchSource<Person, Int>(initialToken: 0) { offset in
        let firstTry = offset == 10 && failed.withLock { wasFailed in
            defer { wasFailed = true }
            return !wasFailed
        }
        if firstTry {
            throw LoadFailure(message: message, isRetryable: true)
        }
        let batch = Array(everyone[offset..<(offset + 10)])
        return offset == 10 ? .completed(batch) : .items(batch, next: offset + 10)
    }
}

/// A source over `items` in batches of `size`, with the offset as the token.
func offsetSource(_ items: [Person], size: Int = 10) -> BatchSource<Person, Int> {
    BatchSource.array(items, batchSize: size)
}

/// Starts a server on 127.0.0.1 port 0 with two event loops.
func startServer(_ bindings: [TableBinding]) throws -> RowstreamServer {
    var configuration = ServerConfiguration()
    configuration.port = 0
    configuration.eventLoopCount = 2
    return try RowstreamServer.start(bindings, configuration: configuration)
}

/// `bindings` served in-process (no socket), as a library user tests theirs.
func testServer(_ bindings: [TableBinding]) throws -> RowstreamTestServer {
    try RowstreamTestServer(bindings)
}

extension InProcessClient {
    /// Opens the event stream at `target`; fails the test when it answers without one.
    func stream(_ target: String, lastEventID: String? = nil) async throws -> InProcessStream {
        let response = await get(target, headers: lastEventID.map { ["Last-Event-ID": $0] } ?? [:])
        guard let stream = response.stream else {
            throw TestConnection.Failure(description: "\(target): \(response.status), no stream: \(response.text)")
        }
        return stream
    }
}

/// A JSON object's fields.
func object(_ text: String) throws -> [String: Any] {
    let value = try JSONSerialization.jsonObject(with: Data(text.utf8))
    guard let dictionary = value as? [String: Any] else {
        throw TestConnection.Failure(description: "not a JSON object: \(text)")
    }
    return dictionary
}

/// POSTs on a fresh connection; returns the status.
func post(_ port: Int, _ path: String) async throws -> Int {
    try await fetch(port, "POST", path).status
}

/// Counts things that happen on other threads (loader calls, cancellations). Thread-safe: one `Lock`.
final class Counter: Sendable {
    private let value = Lock(0)
    func increment() { value.withLock { $0 += 1 } }
    var count: Int { value.withLock { $0 } }
}

/// Keeps every line the server logs. Thread-safe: one `Lock`.
final class RecordingLogger: RowstreamLogger {
    private let lines = Lock<[String]>([])
    func log(_ level: RowstreamLogLevel, _ message: String) { lines.withLock { $0.append("\(level): \(message)") } }
    var messages: [String] { lines.withLock { $0 } }
}
