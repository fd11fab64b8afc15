import JSON

/// One cell's value, typed: what a row template or a config table's JSON path produced. The column's
/// ``ColumnFormat`` decides how it renders (a `.number` column groups an integer, a `.text` column prints it);
/// the renderer formats and escapes it in one pass.
///
/// Thread-safe: an immutable value type.
public enum Cell: Sendable, Hashable {
    /// Nothing (a missing or null value, or a non-finite decimal): an empty `<td>`.
    case empty
    /// Text (a JSON string, or the display text of a boolean, array or object).
    case text(String)
    /// A whole number (also a date in Unix seconds).
    case integer(Int64)
    /// A decimal number (also a date in Unix seconds).
    case decimal(Double)
    /// A whole number too large for `Int64`, as its digits.
    case bigInteger(String)
    /// A URL and the link's text (nil or empty: the URL). Outside a `.link` column, the URL as text.
    case link(String, label: String?)
    /// A series of finite numbers (a sparkline's). Outside a `.sparkline` column, its JSON text.
    case series([Double])

    /// The cell of a JSON value (missing or null: ``empty``).
    public init(_ value: JSONValue?) {
        switch value {
        case nil, .null?: self = .empty
        case .string(let text)?: self = .text(text)
        case .int(let number)?: self = .integer(number)
        case .double(let number)?: self = .decimal(number)
        case .bigInteger(let digits)?: self = .bigInteger(digits)
        case let other?: self = .text(other.displayText ?? "")
        }
    }

    /// The cell of a sparkline column: a JSON array of numbers as a ``series`` (an empty array: ``empty``); any other
    /// value as ``init(_:)`` makes it (which the column then shows as a bad value).
    public init(series value: JSONValue?) {
        guard case .array(let elements)? = value else {
            self.init(value)
            return
        }
        var numbers: [Double] = []
        numbers.reserveCapacity(elements.count)
        for element in elements {
            let isNumber: Bool
            switch element {
            case .int, .double, .bigInteger: isNumber = true
            default: isNumber = false
            }
            guard isNumber, let number = element.doubleValue, number.isFinite else {
                self.init(value)
                return
            }
            numbers.append(number)
        }
        self = numbers.isEmpty ? .empty : .series(numbers)
    }

    /// The cell of a link column: the value's display text as the URL, and `label`'s (empty: none).
    public init(link value: JSONValue?, label: JSONValue?) {
        guard let value, let url = value.displayText else {
            self = .empty
            return
        }
        self = .link(url, label: label?.displayText)
    }

    /// The value's display text, as the JSON value's `displayText` (nil for ``empty``).
    var displayText: String? {
        switch self {
        case .empty: nil
        case .text(let text), .link(let text, _): text
        case .integer(let number): String(number)
        case .decimal(let number): JSONValue.double(number).displayText
        case .bigInteger(let digits): digits
        case .series(let numbers): JSONValue.array(numbers.map(Cell.json)).displayText
        }
    }

    /// A series' number as JSON: a whole number below 2^53 as an integer (`3`, not `3.0`).
    static func json(_ number: Double) -> JSONValue {
        number.magnitude < 9_007_199_254_740_992 && number.rounded() == number ? .int(Int64(number)) : .double(number)
    }
}
