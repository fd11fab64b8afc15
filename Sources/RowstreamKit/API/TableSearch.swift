import HTTPServer
import JSON
import Tables

/// A table's search box: free text the viewer types, sent to the upstream as the query parameter `parameter`
/// (`?q=...`), the one free-text value a config may whitelist. Like a ``TableControl`` it is chosen through the
/// stream URL (`p.q=...`), a page's `reload`, the JSON proxy and export, and starts the table over with skeletons.
///
/// A value is checked before anything reaches the upstream (``checked(_:)``): at most `maxLength` Unicode scalars,
/// no control characters (C0, DEL, C1), given once, well-formed UTF-8; else 400. Surrounding white space is dropped;
/// an empty value sends no parameter. Each distinct value is a query choice of its own, with its own page cache
/// (bounded: the least recently used choices go, docs/CONFIG.md "search").
///
/// Thread-safe: an immutable value, `Sendable`.
public struct TableSearch: Sendable, Hashable {
    /// The upstream query parameter, such as `q` or `search`.
    public var parameter: String
    /// The longest value accepted, in Unicode scalars (1...200 in a config: a page token carries it).
    public var maxLength: Int
    /// The box's label.
    public var label: String

    public init(parameter: String, maxLength: Int, label: String = "Search") {
        self.parameter = parameter
        self.maxLength = maxLength
        self.label = label
    }

    /// The stream URL's parameter that carries the search (`p.q`).
    var streamParameter: String { "p." + parameter }

    /// `{"parameter", "maxLength", "label"}` for `/api/tables`.
    var json: JSONValue {
        ["parameter": .string(parameter), "maxLength": .int(Int64(maxLength)), "label": .string(label)]
    }

    /// The value to send for `value` (nil: send nothing), or 400 with what is wrong with it.
    func checked(_ value: String) throws(HTTPError) -> String? {
        guard !value.unicodeScalars.contains(where: Self.isControl) else {
            throw HTTPError(.badRequest, "\(parameter) must not contain control characters")
        }
        let trimmed = value.trimmingWhiteSpace
        guard trimmed.unicodeScalars.count <= maxLength else {
            throw HTTPError(.badRequest, "\(parameter) is longer than \(maxLength) characters")
        }
        return trimmed.isEmpty ? nil : trimmed
    }

    /// The request's `p.PARAMETER` (nil: absent, the search not chosen), checked: given more than once, or not
    /// percent-encoded UTF-8, is a 400 too. `.some(nil)`: chosen empty (send nothing).
    func value(in request: HTTPRequest) throws(HTTPError) -> String?? {
        let values = request.queryValues(streamParameter)
        guard let first = values.first else { return nil }
        guard values.count == 1 else { throw HTTPError(.badRequest, "\(parameter) may be given only once") }
        guard let value = first else {
            throw HTTPError(.badRequest, "\(parameter) must be percent-encoded UTF-8")
        }
        return .some(try checked(value))
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// The box, inside the controls' form: a search landmark with a labelled `type=search` input holding `value`,
    /// escaped. Its name is the stream parameter, so the no-script page's GET form sends it as it is.
    func appendHTML(value: String, to out: inout [UInt8]) {
        out.append(contentsOf: Array("<div class=\"rs-search\" role=\"search\"><label class=\"rs-control\">".utf8))
        HTMLEscaping.appendEscaped(label, to: &out)
        out.append(contentsOf: Array(" <input type=\"search\" name=\"".utf8))
        HTMLEscaping.appendEscaped(streamParameter, to: &out)
        out.append(contentsOf: Array("\" maxlength=\"\(maxLength)\" autocomplete=\"off\" spellcheck=\"false\" value=\"".utf8))
        HTMLEscaping.appendEscaped(value, to: &out)
        out.append(contentsOf: Array("\"></label></div>".utf8))
    }
}

extension String {
    /// Without leading and trailing white space (spaces, tabs, new lines, and Unicode's other white space).
    fileprivate var trimmingWhiteSpace: String {
        let scalars = unicodeScalars
        guard let start = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let end = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(scalars[start...end])
    }
}
