import JSON
import Sealing

/// A viewer's position in a table, carried as the SSE `id:` of `rows`, `reset` and `complete` events and sent
/// back by the browser as `Last-Event-ID` when it reconnects.
///
/// Opaque to clients: `v1.` followed by base64url of a small JSON object. Decoding is strict; anything that does
/// not decode, or names another table, is treated as "no position" (the viewer starts over with a `reset`).
/// The token holds the upstream's cursor, never a URL, credentials or headers, so it reveals nothing secret and
/// cannot point the server anywhere the configuration did not allow. For config tables the sealed cursor is the
/// walk's position (Upstream's `WalkPosition`): the upstream cursor and the walk's dedup window (a 16-byte hash key
/// and up to 64 key hashes of 8 bytes, about 19 characters of token per key, about 1.4 KB in all), so a reconnect
/// drops the same repeats as the connection it continues. Base64url: `Sealing`'s ``Base64URL``, as every token.
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
    /// Room for a config table's dedup window (about 1.4 KB) and a cursor of up to about 2.5 KB.
    private static let maxEncodedLength = 6_144

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
        return Self.token(payload: .object(object))
    }

    /// The JSON object inside an encoded token (a page token embeds it as it is: no second base64); nil if the
    /// token is not one.
    static func payload(of token: String) -> JSONValue? {
        guard token.utf8.count <= maxEncodedLength, token.hasPrefix(prefix),
              let bytes = Base64URL.decode(token.dropFirst(prefix.count)),
              let json = try? JSONValue.parse(bytes), case .object = json
        else { return nil }
        return json
    }

    /// The encoded token of a ``payload(of:)``.
    static func token(payload: JSONValue) -> String {
        prefix + Base64URL.encode(payload.serialized())
    }

    /// Decodes a token; nil for anything malformed, oversized or of another table.
    package init?(decoding token: String, table expectedTable: String) {
        guard let json = Self.payload(of: token),
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
