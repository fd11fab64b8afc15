/// A strict checker for the renderer's output: tags only from an allow-list, properly nested, attributes only
/// from an allow-list with double-quoted values holding no `<`, `>` or `"`, `href` only http(s), text holding no
/// `<` or `>`, entities only `&name;` or `&#N;`, no control character but tab, LF and FF (no NUL, other C0, CR,
/// DEL or C1: docs/PROTOCOL.md, "Escaping"), and exactly `rowCount` top-level `<tr>` elements. A chart's SVG
/// (`<svg>`, self-closed `<rect/>` and `<polyline/>`) has only whole, non-negative coordinates (no `nan`, no `inf`).
enum HTMLCheck {
    private static let tags: Set<String> = ["tr", "td", "a", "span", "time", "svg", "rect", "polyline"]
    /// The tags written self-closed (`<rect .../>`).
    private static let selfClosedTags: Set<String> = ["rect", "polyline"]
    private static let attributes: Set<String> = ["class", "href", "rel", "datetime", "title", "data-key",
                                                  "data-index", "aria-hidden", "style", "viewBox",
                                                  "preserveAspectRatio", "x", "width", "height", "points"]
    /// The attributes that hold coordinates: ASCII digits, spaces and commas only.
    private static let coordinates: Set<String> = ["viewBox", "x", "width", "height", "points"]

    /// nil when the HTML passes; otherwise what is wrong.
    static func problem(in html: [UInt8], rowCount: Int) -> String? {
        var stack: [String] = []
        var rows = 0
        var i = 0
        func byte(_ at: Int) -> UInt8? { at < html.count ? html[at] : nil }
        while i < html.count {
            switch html[i] {
            case UInt8(ascii: "<"):
                guard let end = html[i...].firstIndex(of: UInt8(ascii: ">")) else { return "unterminated tag" }
                let inside = Array(html[(i + 1)..<end])
                if inside.first == UInt8(ascii: "/") {
                    let name = String(decoding: inside.dropFirst(), as: UTF8.self)
                    guard stack.last == name else { return "mismatched </\(name)>" }
                    stack.removeLast()
                } else {
                    let selfClosed = inside.last == UInt8(ascii: "/")
                    guard let name = openTag(selfClosed ? Array(inside.dropLast()) : inside) else { return "bad tag at \(i)" }
                    guard selfClosed == selfClosedTags.contains(name) else { return "<\(name)> self-closed or not wrongly" }
                    if name == "tr" && stack.isEmpty { rows += 1 }
                    if !selfClosed { stack.append(name) }
                }
                i = end + 1
            case UInt8(ascii: ">"):
                return "raw > in text at \(i)"
            case UInt8(ascii: "&"):
                guard let end = html[i...].prefix(12).firstIndex(of: UInt8(ascii: ";")) else { return "bare &" }
                let entity = html[(i + 1)..<end]
                let named = !entity.isEmpty && entity.allSatisfy { ($0 | 0x20) >= 97 && ($0 | 0x20) <= 122 }
                let numeric = entity.first == UInt8(ascii: "#") && entity.count > 1
                    && entity.dropFirst().allSatisfy { $0 >= 48 && $0 <= 57 }
                guard named || numeric else { return "bad entity" }
                i = end + 1
            case 0x00...0x08, 0x0B, 0x0D...0x1F, 0x7F:
                return "raw control byte \(html[i]) at \(i)"
            case 0xC2 where byte(i + 1).map({ (0x80...0x9F).contains($0) }) == true:
                return "raw C1 control at \(i)"
            default:
                i += 1
            }
        }
        guard stack.isEmpty else { return "unclosed \(stack)" }
        guard rows == rowCount else { return "\(rows) rows for \(rowCount) items" }
        return nil
    }

    /// The tag name if `inside` (between `<` and `>`) is an allowed tag with allowed, well-quoted attributes.
    /// Works on bytes, as an HTML tokenizer does on code points: a `"` followed by a combining mark is still a
    /// quote (comparing Swift `Character`s would merge the two into one grapheme and miss it).
    private static func openTag(_ inside: [UInt8]) -> String? {
        let space = UInt8(ascii: " "), equals = UInt8(ascii: "="), quote = UInt8(ascii: "\"")
        let nameEnd = inside.firstIndex(of: space) ?? inside.endIndex
        let name = String(decoding: inside[..<nameEnd], as: UTF8.self)
        guard tags.contains(name) else { return nil }
        var index = nameEnd
        while index < inside.endIndex {
            guard inside[index] == space, let eq = inside[index...].firstIndex(of: equals),
                  eq + 1 < inside.endIndex, inside[eq + 1] == quote,
                  let close = inside[(eq + 2)...].firstIndex(of: quote)
            else { return nil }
            let attribute = String(decoding: inside[(index + 1)..<eq], as: UTF8.self)
            guard attributes.contains(attribute) else { return nil }
            let value = inside[(eq + 2)..<close]
            if value.contains(UInt8(ascii: "<")) || value.contains(UInt8(ascii: ">")) { return nil }
            let text = String(decoding: value, as: UTF8.self)
            let lower = text.lowercased()  // schemes are case-insensitive (a fuzz finding: `htTps://`)
            if attribute == "href", !(lower.hasPrefix("https://") || lower.hasPrefix("http://")) { return nil }
            if coordinates.contains(attribute),
               !value.allSatisfy({ ($0 >= 48 && $0 <= 57) || $0 == space || $0 == UInt8(ascii: ",") }) {
                return nil
            }
            if attribute == "style", text.lowercased().contains("url(") || text.contains("expression") { return nil }
            index = close + 1
        }
        return name
    }
}
