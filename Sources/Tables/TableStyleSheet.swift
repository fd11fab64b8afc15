/// The per-table CSS that markup may not carry inline under the server's Content-Security-Policy (`style-src
/// 'self'` refuses `style="..."` attributes and `<style>` elements; docs/SECURITY.md): each column's width and
/// floor, the table's minimum width, a grid's number of card fields (`--rs-card-fields`, which sizes its
/// cards), and its skeleton's speed (`--rs-skeleton-speed`, ``SkeletonStyle``). Served as one stylesheet (`/tables.css`) that every page links; a rule finds its table by `data-table`,
/// so it applies on the table's page, on dashboard pages and on the no-script page alike. Each viewer gets the rules
/// of the tables they may see only (``header`` and ``rules(_:)`` of each: the server joins them per request), since
/// a rule names its table and its columns' layout. Pure; thread-safe.
///
/// No column gets narrower than its floor: the larger of its header text's width (``headerWidth(_:)``, an upper
/// bound computed here, since the server cannot measure text) and its `minWidth` (a column without a width:
/// ``Column/defaultMinimumWidth`` unless set). The table's `min-width` is the sum of the columns, each column
/// without a width counted at the largest floor among them: a fixed-layout table shares its free space equally
/// among those columns, and would squeeze them to nothing if the set widths filled it. A narrower screen
/// scrolls the table's box sideways instead (app.css `.rs-box`).
public enum TableStyleSheet {
    /// Where the server serves it.
    public static let path = "/tables.css"

    /// The stylesheet's first line.
    public static let header = "/* Rowstream: column widths and card sizes of the tables you may see. */\n"

    /// The stylesheet for `specs`: ``header``, then each one's ``rules(_:)``.
    public static func css(_ specs: [TableSpec]) -> String {
        specs.reduce(header) { $0 + rules($1) }
    }

    /// The rules of one table: only valid widths are written, and its name is escaped as a CSS string.
    public static func rules(_ spec: TableSpec) -> String {
        let table = "table.rs-table[data-table=\"" + escaped(spec.name) + "\"]"
        let skeleton = spec.skeleton?.rule(table: table) ?? ""
        guard let grid = spec.grid else { return columnRules(spec.columns, table: table) + skeleton }
        return cardRules(spec, grid: grid, table: table) + skeleton
    }

    /// Each column's width (never below its floor), and the table's minimum width.
    static func columnRules(_ columns: [Column], table: String) -> String {
        var out = ""
        var sized: [String] = []
        var freeFloors: [String] = []
        for (index, column) in columns.enumerated() {
            let floor = floor(of: column)
            if let width = column.validatedWidth {
                let size = "max(\(width),\(floor))"
                out += "\(table)>colgroup>col:nth-child(\(index + 1)){width:\(size)}\n"
                sized.append(size)
            } else {
                freeFloors.append(floor)
            }
        }
        var terms = sized
        if !freeFloors.isEmpty {
            let widest = freeFloors.count == 1 ? freeFloors[0] : "max(" + freeFloors.joined(separator: ",") + ")"
            terms.append(freeFloors.count == 1 ? widest : "\(freeFloors.count)*\(widest)")
        }
        if !terms.isEmpty { out += "\(table){min-width:calc(" + terms.joined(separator: " + ") + ")}\n" }
        return out
    }

    /// A grid's card size, and the card field that repeats the card's title hidden (the title shows once).
    static func cardRules(_ spec: TableSpec, grid: GridSpec, table: String) -> String {
        let repeated = spec.columns.indices.filter { grid.titleField != nil && spec.columns[$0].field == grid.titleField }
        var out = "\(table){--rs-card-fields:\(spec.columns.count - repeated.count)}\n"
        for index in repeated {   // a card's cells: its image, its title, then one per column
            out += "\(table) tr.rs-card>td:nth-child(\(index + 3)){display:none}\n"
        }
        return out
    }

    /// The narrowest `column` may get: its header text's width, or its minimum if that is wider.
    static func floor(of column: Column) -> String {
        let header = headerWidth(column.title)
        let minimum = column.minWidth.flatMap { Column.isValidWidth($0) ? $0 : nil }
            ?? (column.validatedWidth == nil ? Column.defaultMinimumWidth : nil)
        guard let minimum else { return header }
        return "max(\(minimum),\(header))"
    }

    /// An upper bound of the width of a header cell showing `title` (app.css: 0.8rem, bold, uppercase, 0.04em
    /// letter spacing, 0.75rem padding each side), in rem. Per character, in ems of the header font: a space 0.45,
    /// a combining mark 0, a wide character (CJK, Hangul, full-width forms, emoji) 1.35, any other 1.1 (wider than
    /// the widest bold capital, W, of the common sans fonts, with its letter spacing).
    public static func headerWidth(_ title: String) -> String {
        var ems = 0.0
        for scalar in title.uppercased().unicodeScalars {
            let value = scalar.value
            if scalar == " " {
                ems += 0.45
            } else if (0x300...0x36f).contains(value) || (0xfe00...0xfe0f).contains(value) || value == 0x200d {
                continue   // combining marks, variation selectors and joiners add no width of their own
            } else if isWide(value) {
                ems += 1.35
            } else {
                ems += 1.1
            }
        }
        let rem = ems * 0.8 + 1.5
        return String((rem * 100 - 1e-9).rounded(.up) / 100) + "rem"   // up to the hundredth, past float noise
    }

    private static func isWide(_ value: UInt32) -> Bool {
        (0x1100...0x115f).contains(value) || (0x2e80...0xa4cf).contains(value) || (0xac00...0xd7a3).contains(value)
            || (0xf900...0xfaff).contains(value) || (0xfe30...0xfe4f).contains(value) || (0xff00...0xff60).contains(value)
            || (0xffe0...0xffe6).contains(value) || (0x2600...0x27bf).contains(value) || (0x1f000...0x1faff).contains(value)
            || (0x20000...0x3fffd).contains(value)
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
