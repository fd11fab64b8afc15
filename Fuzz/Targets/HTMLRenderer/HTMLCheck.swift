/// A strict checker for the renderer's output: tags only from an allow-list, properly nested, attributes only
/// from an allow-list with double-quoted values holding no `<`, `>` or `"`, `href` only http(s), text holding no
/// `<` or `>`, entities only `&name;` or `&#N;`, and exactly `rowCount` top-level `<tr>` elements.
enum HTMLCheck {
    private static let tags: Set<String> = ["tr", "td", "a", "span", "time"]
    private static let attributes: Set<String> = ["class", "href", "rel", "datetime", "title", "data-key",
                                                  "data-index", "aria-hidden", "style"]

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
                    guard let name = openTag(inside) else { return "bad tag at \(i)" }
                    if name == "tr" && stack.isEmpty { rows += 1 }
                    stack.append(name)
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
            default:
                i += 1
            }
        }
        guard stack.isEmpty else { return "unclosed \(stack)" }
        guard rows == rowCount else { return "\(rows) rows for \(rowCount) items" }
        return nil
    }

    /// The tag name if `inside` (between `<` and `>`) is an allowed tag with allowed, well-quoted attributes.
    private static func openTag(_ inside: [UInt8]) -> String? {
        let text = String(decoding: inside, as: UTF8.self)
        guard let nameEnd = text.firstIndex(where: { $0 == " " }) ?? Optional(text.endIndex) else { return nil }
        let name = String(text[..<nameEnd])
        guard tags.contains(name) else { return nil }
        var rest = text[nameEnd...]
        while !rest.isEmpty {
            guard rest.first == " " else { return nil }
            rest = rest.dropFirst()
            guard let equals = rest.firstIndex(of: "="), rest[rest.index(after: equals)...].first == "\"" else {
                return nil
            }
            let attribute = String(rest[..<equals])
            guard attributes.contains(attribute) else { return nil }
            let valueStart = rest.index(equals, offsetBy: 2)
            guard let close = rest[valueStart...].firstIndex(of: "\"") else { return nil }
            let value = rest[valueStart..<close]
            if value.contains("<") || value.contains(">") { return nil }
            if attribute == "href", !(value.hasPrefix("https://") || value.hasPrefix("http://")) { return nil }
            if attribute == "style", value.lowercased().contains("url(") || value.contains("expression") { return nil }
            rest = rest[rest.index(after: close)...]
        }
        return name
    }
}
