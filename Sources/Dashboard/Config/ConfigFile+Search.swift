import JSON
import RowstreamKit

extension TableConfig {
    /// A table's `search`: `{"parameter": NAME, "maxLength": 1...200 (100), "label": TEXT ("Search")}`: the one
    /// query parameter a viewer may send free text in (``TableSearch``). The parameter is a query parameter name no
    /// control uses.
    static func search(_ block: ConfigReader, controls: [TableControl]) throws(ConfigError) -> TableSearch {
        var block = block
        try block.rejectUnknown(["parameter", "maxLength", "label"])
        let parameter = try block.requiredString("parameter", "a query parameter name")
        guard !parameter.isEmpty, parameter.utf8.allSatisfy(Self.isParameterByte) else {
            throw block.error("parameter", "a query parameter name (letters, digits, - _ . [ ])")
        }
        guard !controls.contains(where: { $0.parameter == parameter }) else {
            throw block.error("parameter", "a query parameter no control uses (\(parameter) is a control's)")
        }
        let maxLength = try block.int("maxLength", in: 1...200) ?? 100
        let label = try block.string("label") ?? "Search"
        guard !label.isEmpty else { throw block.error("label", "a non-empty text") }
        try block.finish()
        return TableSearch(parameter: parameter, maxLength: maxLength, label: label)
    }
}
