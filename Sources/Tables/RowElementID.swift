/// Element ids derived from a table's name and a row's key, for clients that find rows by id (the htmx, Turbo and
/// Datastar dialects of the stream: docs/DIALECTS.md). An id is `rs-TABLE-k-KEY` (a row), `rs-TABLE-body` (the rows'
/// container), `rs-TABLE-more` (the demand sentinel) or `rs-TABLE-total` (the list's total), each name escaped: ASCII letters and digits stay, every
/// other byte of its UTF-8 becomes `_HH` (upper-case hex). So an id is the same for the same key, never the same
/// for two keys, and holds nothing that HTML attributes or CSS selectors (`#id`) would need to escape.
///
/// A pure namespace: safe from any thread.
public enum RowElementID {
    /// The id of the row whose key is `key` in table `table`.
    public static func row(table: String, key: String) -> String { prefix(table: table) + escaped(key) }

    /// What a row's id starts with: ``row(table:key:)`` is this and the escaped key.
    public static func prefix(table: String) -> String { "rs-" + escaped(table) + "-k-" }

    /// The id of the element the rows go into.
    public static func body(table: String) -> String { "rs-" + escaped(table) + "-body" }

    /// The id of the element that asks for the next batch when it is revealed.
    public static func more(table: String) -> String { "rs-" + escaped(table) + "-more" }

    /// The id of the element that shows how many rows the whole list holds (the dialects' `total`).
    public static func total(table: String) -> String { "rs-" + escaped(table) + "-total" }

    /// `text` with every byte other than an ASCII letter or digit written as `_HH`.
    public static func escaped(_ text: String) -> String {
        var writer = ByteWriter(capacity: text.utf8.count * 3)
        appendEscaped(text, to: &writer)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    static func appendEscaped(_ text: String, to writer: inout ByteWriter) {
        for byte in text.utf8 {
            if isKept(byte) {
                writer.append(byte)
            } else {
                writer.append(UInt8(ascii: "_"))
                writer.append(hex[Int(byte >> 4)])
                writer.append(hex[Int(byte & 0xF)])
            }
        }
    }

    private static func isKept(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }

    private static let hex = Array("0123456789ABCDEF".utf8)
}
