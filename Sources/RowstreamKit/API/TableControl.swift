import JSON
import Tables

/// A sort or filter control shown above a table: a `<select>` whose choice is sent to the upstream as the query
/// parameter `parameter`. Changing it starts the table over, with skeletons. The first option is shown first; an
/// option whose value is empty sends no parameter (the request's own default).
///
/// Thread-safe: an immutable value, `Sendable`.
public struct TableControl: Sendable, Hashable {
    /// One choice: the parameter's value and what the viewer reads.
    public struct Option: Sendable, Hashable {
        public var value: String
        public var label: String

        public init(value: String, label: String) {
            self.value = value
            self.label = label
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

    /// `{"parameter", "label", "options": [{"value", "label"}]}` for `/api/tables`.
    var json: JSONValue {
        [
            "parameter": .string(parameter), "label": .string(label),
            "options": .array(options.map { ["value": .string($0.value), "label": .string($0.label)] }),
        ]
    }

    /// The `<select>` of the page's control bar, escaped.
    func appendHTML(to out: inout [UInt8]) {
        out.append(contentsOf: Array("<label class=\"rs-control\">".utf8))
        HTMLEscaping.appendEscaped(label, to: &out)
        out.append(contentsOf: Array(" <select name=\"".utf8))
        HTMLEscaping.appendEscaped(streamParameter, to: &out)
        out.append(contentsOf: Array("\">".utf8))
        for option in options {
            out.append(contentsOf: Array("<option value=\"".utf8))
            HTMLEscaping.appendEscaped(option.value, to: &out)
            out.append(contentsOf: Array("\">".utf8))
            HTMLEscaping.appendEscaped(option.label, to: &out)
            out.append(contentsOf: Array("</option>".utf8))
        }
        out.append(contentsOf: Array("</select></label>".utf8))
    }
}
