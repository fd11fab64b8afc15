import Foundation
import JSON

/// A viewer's position in a table, carried as the SSE `id:` of `rows`, `reset` and `complete` events and sent
/// back by the browser as `Last-Event-ID` when it reconnects.
///
/// Opaque to clients: `v1.` followed by base64url of a small JSON object. Decoding is strict; anything that does
/// not decode, or names another table, is treated as "no position" (the viewer starts over with a `reset`).
/// The token holds the upstream's cursor, never a URL, credentials or headers, so it reveals nothing secret and
/// cannot point the server anywhere the configuration did not allow.
package struct ResumeToken: Sendable, Equatable {
    package enum Position: Sendable, Equatable {
        /// Nothing delivered yet.
        case start
        /// `offset` rows delivered; the next batch is fetched with `cursor`.
        case after(cursor: String)
        /// Every row delivered, `complete` not yet seen by the viewer.
        case end
        /// `complete` delivered: a reconnect gets 204.
        case finished
    }

    package var table: String
    package var offset: Int
    package var position: Position

    private static let prefix = "v1."
    private static let maxEncodedLength = 4_096

    package func encoded() -> String {
        var object: [String: JSONValue] = ["t": .string(table), "o": .int(Int64(offset))]
        switch position {
        case .start: object["p"] = "s"
        case .after(let cursor):
            object["p"] = "a"
            object["c"] = .string(cursor)
        case .end: object["p"] = "e"
        case .finished: object["p"] = "f"
        }
        let json = JSONValue.object(object).serialized()
        let base64 = Data(json).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        return Self.prefix + base64
    }

    /// Decodes a token; nil for anything malformed, oversized or of another table.
    package init?(decoding token: String, table expectedTable: String) {
        guard token.utf8.count <= Self.maxEncodedLength, token.hasPrefix(Self.prefix) else { return nil }
        var base64 = token.dropFirst(Self.prefix.count)
            .replacingOccurrences(of: "-", with: "+")
            .replacingOccurrences(of: "_", with: "/")
        while base64.utf8.count % 4 != 0 { base64.append("=") }
        guard let data = Data(base64Encoded: base64),
              let json = try? JSONValue.parse([UInt8](data)),
              let table = json["t"]?.stringValue, table == expectedTable,
              let offset = json["o"]?.intValue, offset >= 0, offset <= Int64(Int32.max),
              let kind = json["p"]?.stringValue
        else { return nil }
        let position: Position
        switch kind {
        case "s" where offset == 0: position = .start
        case "a":
            guard let cursor = json["c"]?.stringValue else { return nil }
            position = .after(cursor: cursor)
        case "e": position = .end
        case "f": position = .finished
        default: return nil
        }
        self.init(table: table, offset: Int(offset), position: position)
    }

    package init(table: String, offset: Int, position: Position) {
        self.table = table
        self.offset = offset
        self.position = position
    }
}
