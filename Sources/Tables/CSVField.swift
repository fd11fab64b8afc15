/// One CSV field (RFC 4180), made safe to open in a spreadsheet: a text value starting with `=`, `+`, `-`, `@`, a
/// tab or a carriage return is prefixed with `'`, so Excel, LibreOffice and Google Sheets show it as text instead of
/// running it as a formula (OWASP, "CSV Injection"); a field holding a comma, a double quote, CR or LF is quoted,
/// its quotes doubled.
///
/// Thread-safe: stateless.
enum CSVField {
    /// The first characters that make a spreadsheet read a cell as a formula (OWASP, "CSV Injection").
    static let formulaStarts: Set<UInt8> = [UInt8(ascii: "="), UInt8(ascii: "+"), UInt8(ascii: "-"),
                                            UInt8(ascii: "@"), 0x09, 0x0D]

    /// Appends `text` as one field. `neutralizing`: prefix a formula-like value with `'` (text values; numbers are
    /// numbers, and `-5` stays a negative number).
    static func append(_ text: String, neutralizing: Bool, to out: inout [UInt8]) {
        let bytes = text.utf8
        let prefixed = neutralizing && bytes.first.map(formulaStarts.contains) == true
        let quoted = bytes.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0A || $0 == 0x0D }
        if quoted { out.append(UInt8(ascii: "\"")) }
        if prefixed { out.append(UInt8(ascii: "'")) }
        if quoted {
            for byte in bytes {
                if byte == UInt8(ascii: "\"") { out.append(byte) }
                out.append(byte)
            }
            out.append(UInt8(ascii: "\""))
        } else {
            out.append(contentsOf: bytes)
        }
    }
}
