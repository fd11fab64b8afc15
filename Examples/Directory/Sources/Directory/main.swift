// People in memory as a live, scrolling table: swift run --package-path Examples/Directory Directory [PORT]
import Foundation
import RowstreamKit

struct Person: Sendable { let id: Int, name: String, city: String, joined: Date, plan: String }

let cities = ["Lisbon", "Osaka", "Nairobi", "Lima", "Oslo", "Tromsø"]
let everyone = (1...1_000).map { id in
    Person(id: id, name: "Person \(id)", city: cities[id % cities.count],
           joined: Date(timeIntervalSince1970: 1_600_000_000 + Double(id) * 86_400), plan: id % 3 == 0 ? "Pro" : "Free")
}

// The loader: an offset in, a batch and the next offset out. Slow on purpose, to show the skeleton rows.
let source = BatchSource<Person, Int>(initialToken: 0) { offset in
    try await Task.sleep(for: .milliseconds(300))
    let batch = Array(everyone.dropFirst(offset).prefix(50))
    return offset + 50 >= everyone.count ? .completed(batch) : .items(batch, next: offset + 50)
}

// The row template fills one typed cell per column; escaping and formatting are done for you.
let people = TableBinding(
    name: "people", title: "People",
    columns: [TableColumn("ID", format: .number, width: "5rem"), TableColumn("Name"), TableColumn("City"),
              TableColumn("Joined", format: .date, width: "10rem"), TableColumn("Plan", format: .badge)],
    source: source
) { person, row in
    row.key = String(person.id)
    row.number(person.id)
    row.text(person.name)
    row.text(person.city)
    row.date(person.joined)
    row.badge(person.plan)
}

var configuration = ServerConfiguration()
configuration.port = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 8080
let server = try RowstreamServer.start([people], configuration: configuration)
print("Serving http://127.0.0.1:\(server.port)/")
server.waitUntilShutdown()
