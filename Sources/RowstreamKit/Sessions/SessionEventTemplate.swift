import HTTPServer
import Locking
import Tables

/// A table's `session` event with the session id left out, made once: each arriving viewer's event is the parts
/// around the id joined with its own id (issue 17, "arrivals as cheap as a broadcast": the event's JSON, the
/// table's columns included, was serialized per viewer).
///
/// The id is 32 lowercase hex digits (``SessionID``), which neither JSON nor the event's framing changes, so the
/// joined bytes are the ones a whole serialization gives. The template is checked when made: `make` run with a
/// second id must give the parts joined with it, else (a title or column that happens to hold the placeholder)
/// no template is kept and every event is made whole. Any other id is made whole too.
///
/// Thread-safe: the parts are made once behind a `Lock`, then immutable.
final class SessionEventTemplate: Sendable {
    /// The template: the event made for ``placeholder`` (its head is every viewer's) and its body split at it, the
    /// last part with the event's end (each part's gzip block made once with it). A class: each arrival reads it
    /// out of the lock for one retain. Thread-safe: immutable.
    final class Template: Sendable {
        let sample: FramedSSEEvent
        let parts: SplicedBodyParts

        init(sample: FramedSSEEvent, parts: [[UInt8]]) {
            self.sample = sample
            var ended = parts
            FramedSSEEvent.appendEnd(to: &ended[ended.count - 1])
            self.parts = SplicedBodyParts(ended)
        }
    }

    /// nil: not made yet; `.some(nil)`: unusable, every event is made whole.
    private let made = Lock<Template??>(nil)

    /// The `session` event for `id`: `make(id)`'s bytes, spliced from the template when `id` is a session id.
    func event(id: String, make: (String) -> FramedSSEEvent) -> FramedSSEEvent {
        guard Self.isSessionID(id), let template = template(make) else { return make(id) }
        // The viewer's own body, the parts joined with its id (a gzip stream joins the parts' blocks with the id
        // stored: no compressor per viewer), after the head every viewer's event has (the sample's array).
        return FramedSSEEvent(headOf: template.sample, splicing: template.parts, with: id)
    }

    private func template(_ make: (String) -> FramedSSEEvent) -> Template? {
        if let template = made.withLock({ $0 }) { return template }
        let template = Self.template(make)
        made.withLock { if $0 == nil { $0 = template } }
        return template
    }

    /// ``parts(_:)`` with the sample event whose head they go after.
    static func template(_ make: (String) -> FramedSSEEvent) -> Template? {
        let sample = make(placeholder)
        return parts(make, sample: sample).map { Template(sample: sample, parts: $0) }
    }

    static let placeholder = "0f1e2d3c4b5a69780f1e2d3c4b5a6978"
    static let check = "a1b2c3d4e5f60718a1b2c3d4e5f60718"

    /// The body of `make(placeholder)` before the blank line that ends it, split at the placeholder, if `make(check)`
    /// is those parts joined with `check` and the head is the plain `session` head (no id, no retry).
    static func parts(_ make: (String) -> FramedSSEEvent) -> [[UInt8]]? {
        parts(make, sample: make(placeholder))
    }

    private static func parts(_ make: (String) -> FramedSSEEvent, sample: FramedSSEEvent) -> [[UInt8]]? {
        var end: [UInt8] = []
        FramedSSEEvent.appendEnd(to: &end)
        guard sample.event == "session", sample.id == nil, sample.head == FramedSSEEvent(event: "session", id: nil,
                                                                                           body: []).head,
              sample.body.count >= end.count, sample.body.suffix(end.count).elementsEqual(end) else { return nil }
        let parts = split(Array(sample.body.dropLast(end.count)), at: Array(placeholder.utf8))
        let checked = make(check)
        guard parts.count > 1, checked.head == sample.head, checked.body == join(parts, Array(check.utf8)) + end else {
            return nil
        }
        return parts
    }

    static func split(_ bytes: [UInt8], at separator: [UInt8]) -> [[UInt8]] {
        var parts: [[UInt8]] = []
        var start = 0
        var index = 0
        while index + separator.count <= bytes.count {
            if bytes[index..<(index + separator.count)].elementsEqual(separator) {
                parts.append(Array(bytes[start..<index]))
                index += separator.count
                start = index
            } else {
                index += 1
            }
        }
        parts.append(Array(bytes[start...]))
        return parts
    }

    static func join(_ parts: [[UInt8]], _ separator: [UInt8]) -> [UInt8] {
        Array(parts.joined(separator: separator))
    }

    static func isSessionID(_ id: String) -> Bool {
        func isLowerHex(_ byte: UInt8) -> Bool { (byte >= 0x30 && byte <= 0x39) || (byte >= 0x61 && byte <= 0x66) }
        guard id.utf8.count == 32 else { return false }
        // In place: iterating the `UTF8View` cost about 36 instructions a byte, once per arriving viewer.
        return id.withUTF8Bytes { $0.allSatisfy(isLowerHex) }
    }
}
