@testable import HTTPServer
import RowstreamTesting
import Tables
import TestSupport
import Testing
@testable import RowstreamKit

/// Issue 17 (arrivals as cheap as a broadcast): the `session` event is serialized once per table, each viewer's
/// spliced from the parts around its id, byte for byte the event a whole serialization gives.
@Suite struct SessionEventTemplateTests {
    static func table(title: String = "T <&> \"q\"") -> TableBinding {
        TableBinding(name: "t", title: title, columns: [TableColumn("Value"), TableColumn("Ünïcode \u{2028}")],
                     source: BatchSource<String, Int>(initialToken: 0) { _ in .completed([]) }) { value, row in
            row.key = value
            row.text(value)
        }
    }

    @Test func splicedEventsAreTheWholeOnesAndSerializedOnce() {
        let table = Self.table()
        let events = StreamEvents(table: table)
        let made = Counter()
        let template = SessionEventTemplate()
        let ids = (0..<5).map { _ in SessionID.make().text } + ["not-a-session-id"]
        for id in ids {
            let spliced = template.event(id: id) { id in made.increment(); return events.wholeSession(id: id) }
            let whole = events.wholeSession(id: id)
            #expect(spliced.bytes == whole.bytes)
            #expect(spliced.event == "session" && spliced.id == nil)
            #expect(String(decoding: spliced.bytes, as: UTF8.self).contains("/tables/t/sessions/\(id)/next"))
        }
        // Two to make the template (the placeholder and the check), one for the id that is not a session id.
        #expect(made.count == 3)
        // The table's own template, as the stream route uses it.
        let id = SessionID.make().text
        #expect(events.session(id: id).bytes == events.wholeSession(id: id).bytes)
    }

    @Test func aTableWhoseTextHoldsThePlaceholderIsSerializedWhole() {
        let events = StreamEvents(table: Self.table(title: "title \(SessionEventTemplate.placeholder)"))
        let made = Counter()
        let template = SessionEventTemplate()
        for _ in 0..<3 {
            let id = SessionID.make().text
            let event = template.event(id: id) { id in made.increment(); return events.wholeSession(id: id) }
            #expect(event.bytes == events.wholeSession(id: id).bytes)
        }
        #expect(made.count == 2 + 3, "no template kept: each event made whole")
    }
}

extension SessionEventTemplateTests {
    /// Every fresh viewer's `loading` at offset 0 is one event made once, byte for byte the one made for its offset,
    /// its body one array (shared: a gzip-coded stream compresses it once); other offsets are made as they come.
    @Test func theLoadingEventAtTheStartIsMadeOnce() {
        let events = StreamEvents(table: Self.table())
        let first = events.event(for: .loading(offset: 0)), again = events.event(for: .loading(offset: 0))
        #expect(first.bytes == StreamEvents.loading(offset: 0).bytes)
        #expect(String(decoding: first.bytes, as: UTF8.self) == "event: loading\ndata: {\"offset\":0}\n\n")
        #expect(first.bodyIsShared)
        first.body.withUnsafeBufferPointer { a in again.body.withUnsafeBufferPointer { b in #expect(a.baseAddress == b.baseAddress) } }
        #expect(String(decoding: events.event(for: .loading(offset: 50)).bytes, as: UTF8.self)
            == "event: loading\ndata: {\"offset\":50}\n\n")
    }
}
