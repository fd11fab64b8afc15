/// The per-table CSS that markup may not carry inline under the server's Content-Security-Policy (`style-src
/// 'self'` refuses `style="..."` attributes and `<style>` elements; docs/SECURITY.md): each column's validated
/// width, and a grid's number of card fields (`--rs-card-fields`, which sizes its cards). Served as one stylesheet
/// (`/tables.css`) that every page links; a rule finds its table by `data-table`, so it applies on the table's page,
/// on dashboard pages and on the no-script page alike. Pure; thread-safe.
public enum TableStyleSheet {
    /// Where the server serves it.
    public static let path = "/tables.css"

    /// The stylesheet for `specs`: only valid widths are written, and each name is escaped as a CSS string.
    public static func css(_ specs: [TableSpec]) -> String {
        var out = "/* Rowstream: column widths and card sizes of the configured tables. */\n"
        for spec in specs {
            let table = "table.rs-table[data-table=\"" + escaped(spec.name) + "\"]"
            if spec.grid != nil { out += "\(table){--rs-card-fields:\(spec.columns.count)}\n" }
            for (index, column) in spec.columns.enumerated() {
                guard let width = column.validatedWidth else { continue }
                out += "\(table)>colgroup>col:nth-child(\(index + 1)){width:\(width)}\n"
            }
        }
        return out
    }

    /// `text` as the inside of a double-quoted CSS string: `"`, `\`, control characters and anything outside
    /// printable ASCII as `\HEX ` escapes (CSS Syntax §4.3.7), so no name can end the string or the rule.
    static func escaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if value >= 0x20, value < 0x7f, scalar != "\"", scalar != "\\", scalar != "<", scalar != ">" {
                out.unicodeScalars.append(scalar)
            } else if value == 0 {
                out += "\\fffd "
            } else {
                out += "\\" + String(value, radix: 16) + " "
            }
        }
        return out
    }
}
