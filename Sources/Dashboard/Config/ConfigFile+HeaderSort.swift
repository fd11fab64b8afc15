import RowstreamKit
import Tables

/// A column's `sort`: `{"parameter": "sort", "ascending": "name", "descending": "-name"}`. Clicking the column's
/// header then chooses those values of the control of that parameter, through the controls' whitelist: the values
/// must be options of that control (docs/CONFIG.md "Sort by header"), or, when no control has the parameter, the
/// table gets one ("Sort": "Default" plus each sortable column's two directions). Nothing else reaches the upstream.
///
/// A throwaway value used while parsing. Pure.
struct HeaderSortConfig {
    let column: Int
    let parameter: String
    let ascending: String
    let descending: String
    /// The column's `sort` object, for errors.
    let reader: ConfigReader

    /// The `sort` of the column at `column` (nil: none).
    init?(column: Int, in columnReader: inout ConfigReader) throws(ConfigError) {
        guard var sort = try columnReader.object("sort") else { return nil }
        try sort.rejectUnknown(["parameter", "ascending", "descending"])
        let parameter = try sort.requiredString("parameter", "a query parameter name")
        guard parameter.utf8.allSatisfy(TableConfig.isParameterByte) else {
            throw sort.error("parameter", "a query parameter name (letters, digits, - _ . [ ])")
        }
        ascending = try sort.requiredString("ascending", "the parameter's value that sorts ascending")
        descending = try sort.requiredString("descending", "the parameter's value that sorts descending")
        guard ascending != descending else { throw sort.error("descending", "a value other than ascending's") }
        try sort.finish()
        self.column = column
        self.parameter = parameter
        self.reader = sort
    }

    /// `controls` with each sort's options marked as its column's header sort (added to a new control where no
    /// control has the parameter).
    static func apply(_ sorts: [HeaderSortConfig], to controls: [TableControl],
                      columns: [Column]) throws(ConfigError) -> [TableControl] {
        var controls = controls
        let configured = Set(controls.map(\.parameter))
        for sort in sorts {
            var index = controls.firstIndex { $0.parameter == sort.parameter }
            if index == nil {
                controls.append(TableControl(parameter: sort.parameter, label: "Sort",
                                             options: [TableControl.Option(value: "", label: "Default")]))
                index = controls.count - 1
            }
            guard let index else { continue }
            let title = columns[sort.column].title
            for (key, value, direction) in [("ascending", sort.ascending, TableControl.HeaderSort.Direction.ascending),
                                            ("descending", sort.descending, .descending)] {
                let headerSort = TableControl.HeaderSort(column: sort.column, direction: direction)
                if let option = controls[index].options.firstIndex(where: { $0.value == value }) {
                    guard controls[index].options[option].headerSort == nil else {
                        throw sort.reader.error(key, "a value no other header sort uses")
                    }
                    controls[index].options[option].headerSort = headerSort
                } else if configured.contains(sort.parameter) {
                    throw sort.reader.error(key, "one of the options of the control \(sort.parameter) (the whitelist)")
                } else {
                    controls[index].options.append(TableControl.Option(
                        value: value, label: title + (direction == .ascending ? " ↑" : " ↓"), headerSort: headerSort))
                }
            }
        }
        return controls
    }
}
