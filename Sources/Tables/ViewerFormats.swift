/// How the page shows a table's dates and numbers to its viewer (issue 28, "when"): in a configured time zone or the
/// viewer's own, numbers in a configured locale, the viewer's, or as rendered. The server's HTML, the no-script page
/// and exports keep UTC ISO 8601 and the rendered numbers; the page script (Public/dates.js) reads these from the
/// table's `data-time-zone` and `data-locale` attributes. Thread-safe: a value.
public struct ViewerFormats: Sendable, Hashable {
    /// An IANA time zone name (`Asia/Tokyo`) the page shows dates in; nil: the viewer's own time zone.
    public var timeZone: String?
    /// `viewer` (the browser's locale) or a BCP 47 tag (`de-CH`) the page formats numbers in; nil: as rendered.
    public var locale: String?

    /// Dates in the viewer's zone, numbers as rendered.
    public init(timeZone: String? = nil, locale: String? = nil) {
        self.timeZone = timeZone
        self.locale = locale
    }

    /// ` data-time-zone="..." data-locale="..."` for the table element (each only when set), escaped.
    func shellAttributes() -> [UInt8] {
        var out: [UInt8] = []
        if let timeZone {
            out.append(contentsOf: " data-time-zone=\"".utf8)
            HTMLEscaping.appendEscaped(timeZone, to: &out)
            out.append(UInt8(ascii: "\""))
        }
        if let locale {
            out.append(contentsOf: " data-locale=\"".utf8)
            HTMLEscaping.appendEscaped(locale, to: &out)
            out.append(UInt8(ascii: "\""))
        }
        return out
    }
}
