import Foundation
import JSON

/// A page stream's resume token (the `id:` of its events, sent back as `Last-Event-ID`): every table's position in
/// one value. Opaque to clients: `p1.` followed by base64url of `{"g": PAGE, "t": {TABLE: {"r": RESUME, "q":
/// {PARAMETER: VALUE}}}}`, where `RESUME` is the table's own ``ResumeToken`` (its upstream cursor sealed, as on
/// a table's own stream) and `q` the table's sort and filter choice. A table without an entry has sent nothing
/// that moved its position yet. Decoding is strict; anything malformed, oversized or of another page is nil.
///
/// Thread-safe: a value type.
struct PageToken: Sendable, Equatable {
    struct Entry: Sendable, Equatable {
        /// The table's own resume token (``ResumeToken/encoded()``).
        var resume: String
        /// The table's sort and filter choice, by upstream parameter.
        var query: [String: String]
    }

    var page: String
    var tables: [String: Entry]

    fileprivate static let prefix = "p1."
    /// Room for 8 tables' tokens (the HTTP server's header limit is larger).
    private static let maxEncodedLength = 6_144

    init(page: String, tables: [String: Entry]) {
        self.page = page
        self.tables = tables
    }

    func encoded() -> String {
        var members: [String: JSONValue] = [:]
        for (name, entry) in tables {
            members[name] = ["r": .string(entry.resume), "q": .object(entry.query.mapValues(JSONValue.string))]
        }
        let json: JSONValue = ["g": .string(page), "t": .object(members)]
        return Self.prefix + Base64URL.encode(json.serialized())
    }

    /// Decodes a token of page `expectedPage`; nil for anything malformed, oversized or of another page.
    init?(decoding token: String, page expectedPage: String) {
        guard token.utf8.count <= Self.maxEncodedLength, token.hasPrefix(Self.prefix),
              let bytes = Base64URL.decode(token.dropFirst(Self.prefix.count)),
              let json = try? JSONValue.parse(bytes),
              json["g"]?.stringValue == expectedPage,
              case .object(let members)? = json["t"]
        else { return nil }
        var tables: [String: Entry] = [:]
        for (name, value) in members {
            guard let resume = value["r"]?.stringValue, case .object(let query)? = value["q"] else { return nil }
            var choice: [String: String] = [:]
            for (parameter, value) in query {
                guard let text = value.stringValue else { return nil }
                choice[parameter] = text
            }
            tables[name] = Entry(resume: resume, query: choice)
        }
        self.init(page: expectedPage, tables: tables)
    }
}

extension PageToken {
    /// The resume token of `table` inside the page token `token` (of any page); nil if unreadable or absent.
    static func resume(in token: String, table: String) -> String? {
        guard token.hasPrefix(prefix), let bytes = Base64URL.decode(token.dropFirst(prefix.count)),
              let json = try? JSONValue.parse(bytes), let page = json["g"]?.stringValue
        else { return nil }
        return PageToken(decoding: token, page: page)?.tables[table]?.resume
    }
}

/// base64url without padding (RFC 4648, section 5).
enum Base64URL {
    static func encode(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func decode(_ text: Substring) -> [UInt8]? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.utf8.count % 4 != 0 { base64.append("=") }
        return Data(base64Encoded: base64).map { [UInt8]($0) }
    }
}
