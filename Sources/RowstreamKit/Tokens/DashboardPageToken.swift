import JSON
import Sealing

/// A page stream's resume token (the `id:` of its events, sent back as `Last-Event-ID`): every table's position in
/// one value. Opaque to clients: `p1.` followed by base64url of `{"g": PAGE, "t": {TABLE: {"r": RESUME, "q":
/// {PARAMETER: VALUE}}}}`, where `RESUME` is the table's own ``ResumeToken`` as its JSON object (its upstream
/// cursor and dedup window sealed, as on a table's own stream; embedded, not base64-encoded a second time, so a
/// table costs about as much here as its own token) and `q` the table's sort and filter choice. The older form
/// with `RESUME` as the encoded token string is still read. A table without an entry has sent nothing
/// that moved its position yet. Decoding is strict; anything malformed, oversized or of another page is nil.
///
/// Thread-safe: a value type.
struct DashboardPageToken: Sendable, Equatable {
    struct Entry: Sendable, Equatable {
        /// The table's own resume token (``ResumeToken/encoded()``).
        var resume: String
        /// The table's sort and filter choice, by upstream parameter.
        var query: [String: String]
    }

    var page: String
    var tables: [String: Entry]

    fileprivate static let prefix = "p1."
    /// The most the tables' choices (sorts, filters, searches) may take of a token: as the encoded length of a token
    /// holding only them (``choicesLength(page:_:)``). A choice that would pass it is refused where it is made (a
    /// page's `reload`, 400), so a long search never makes a token this server cannot read back.
    static let maxChoicesLength = 2_048
    /// Room for 8 tables' tokens with their dedup windows (about 1.4 KB each, docs/PROTOCOL.md) and the choices;
    /// the HTTP server's header section limit (16 KB) is larger, with room for the request's other headers.
    private static let maxEncodedLength = 12_288 + maxChoicesLength

    init(page: String, tables: [String: Entry]) {
        self.page = page
        self.tables = tables
    }

    func encoded() -> String {
        var members: [String: JSONValue] = [:]
        for (name, entry) in tables {
            let resume = ResumeToken.payload(of: entry.resume) ?? .string(entry.resume)
            members[name] = ["r": resume, "q": .object(entry.query.mapValues(JSONValue.string))]
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
            let resume: String
            switch value["r"] {
            case .string(let token)?: resume = token
            case let payload? where payload.objectValue != nil: resume = ResumeToken.token(payload: payload)
            default: return nil
            }
            guard case .object(let query)? = value["q"] else { return nil }
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

extension DashboardPageToken {
    /// The encoded length of a token of `page` that holds only `queries` (by table): what the choices take.
    static func choicesLength(page: String, _ queries: [String: [String: String]]) -> Int {
        DashboardPageToken(page: page, tables: queries.mapValues { Entry(resume: "", query: $0) }).encoded().utf8.count
    }

    /// The resume token of `table` inside the page token `token` (of any page); nil if unreadable or absent.
    static func resume(in token: String, table: String) -> String? {
        guard token.hasPrefix(prefix), let bytes = Base64URL.decode(token.dropFirst(prefix.count)),
              let json = try? JSONValue.parse(bytes), let page = json["g"]?.stringValue
        else { return nil }
        return DashboardPageToken(decoding: token, page: page)?.tables[table]?.resume
    }
}
