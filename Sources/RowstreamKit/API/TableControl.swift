import JSON
import Tables

/// A sort or filter control shown above a table: a `<select>` whose choice is sent to the upstream as the query
/// parameter `parameter`. Changing it starts the table over, with skeletons. The first option is shown first; an
/// option whose value is empty sends no parameter (the request's own default). An option may also be a column's
/// header sort (``HeaderSort``): clicking that column's header chooses it (Public/headersort.js), through the same
/// whitelisted path.
///
/// Thread-safe: an immutable value, `Sendable`.
public struct TableControl: Sendable, Hashable {
    /// One choice: the parameter's value and what the viewer reads, and the header sort it is, if any.
    public struct Option: Sendable, Hashable {
        public var value: String
        public var label: String
        /// The column header whose click chooses this option (nil: none).
        public var headerSort: HeaderSort?

        public init(value: String, label: String, headerSort: HeaderSort? = nil) {
            self.value = value
            self.label = label
            self.headerSort = headerSort
        }
    }

    /// A column whose header sorts the table by this control: its index among the table's columns, and the
    /// direction the option sorts in.
    public struct HeaderSort: Sendable, Hashable {
        public enum Direction: String, Sendable, Hashable {
            case ascending, descending
        }

        public var column: Int
        public var direction: Direction

        public init(column: Int, direction: Direction) {
            self.column = column
            self.direction = direction
        }
    }

    /// The upstream query parameter, such as `sort` or `status`.
    public var parameter: String
    /// The control's label.
    public var label: String
    /// The choices, the first shown first.
    public var options: [Option]

    public init(parameter: String, label: String, options: [Option]) {
        self.parameter = parameter
        self.label = label
        self.options = options
    }

    /// The stream URL's parameter that carries this control's choice (`p.sort=city`).
    var streamParameter: String { "p." + parameter }

    /// `{"parameter", "label", "options": [{"value", "label", "sort"?: {"column", "direction"}}]}` for `/api/tables`.
    var json: JSONValue {
        [
            "parameter": .string(parameter), "label": .string(label),
            "options": .array(options.map { option in
                var entry: [String: JSONValue] = ["value": .string(option.value), "label": .string(option.label)]
                if let sort = option.headerSort {
                    entry["sort"] = ["column": .int(Int64(sort.column)), "direction": .string(sort.direction.rawValue)]
                }
                return .object(entry)
            }),
        ]
    }

    /// The `<select>` of the page's control bar, escaped. A header sort's option carries its column and direction
    /// (`data-sort-column="1" data-sort="ascending"`), which headersort.js reads.
    func appendHTML(to out: inout [UInt8]) {
        out.append(contentsOf: Array("<label class=\"rs-control\">".utf8))
        HTMLEscaping.appendEscaped(label, to: &out)
        out.append(contentsOf: Array(" <select name=\"".utf8))
        HTMLEscaping.appendEscaped(streamParameter, to: &out)
        out.append(contentsOf: Array("\">".utf8))
        for option in options {
            out.append(contentsOf: Array("<option value=\"".utf8))
            HTMLEscaping.appendEscaped(option.value, to: &out)
            if let sort = option.headerSort {
                out.append(contentsOf: Array("\" data-sort-column=\"\(sort.column)\" data-sort=\"\(sort.direction.rawValue)".utf8))
            }
            out.append(contentsOf: Array("\">".utf8))
            HTMLEscaping.appendEscaped(option.label, to: &out)
            out.append(contentsOf: Array("</option>".utf8))
        }
        out.append(contentsOf: Array("</select></label>".utf8))
    }
}
