import JSON
import RowstreamKit

extension TableConfig {
    /// A table's `controls`: `[{"parameter": NAME, "label": TEXT, "options": [{"value": V, "label": TEXT}, ...]}]`.
    /// Parameters are query parameter names (letters, digits, `-`, `_`, `.`, `[`, `]`), each used once; 1...50
    /// options with distinct values.
    static func controls(_ list: [JSONValue], at reader: ConfigReader) throws(ConfigError) -> [TableControl] {
        var controls: [TableControl] = []
        for (i, element) in list.enumerated() {
            var control = try ConfigReader(element, file: reader.file, path: reader.keyPath("controls") + "[\(i)]")
            try control.rejectUnknown(["parameter", "label", "options"])
            let parameter = try control.requiredString("parameter", "a query parameter name")
            guard parameter.utf8.allSatisfy(Self.isParameterByte), !controls.contains(where: { $0.parameter == parameter }) else {
                throw control.error("parameter", "a query parameter name (letters, digits, - _ . [ ]) no other control uses")
            }
            let label = try control.string("label") ?? parameter
            guard let optionList = try control.array("options"), (1...50).contains(optionList.count) else {
                throw control.error("options", "an array of 1 to 50 options")
            }
            var options: [TableControl.Option] = []
            for (i, value) in optionList.enumerated() {
                var option = try ConfigReader(value, file: control.file, path: control.keyPath("options") + "[\(i)]")
                try option.rejectUnknown(["value", "label"])
                guard let text = try option.string("value"), !options.contains(where: { $0.value == text }) else {
                    throw option.error("value", "a string (\"\" sends no parameter) no other option uses")
                }
                options.append(TableControl.Option(value: text, label: try option.string("label") ?? text))
                try option.finish()
            }
            try control.finish()
            controls.append(TableControl(parameter: parameter, label: label, options: options))
        }
        return controls
    }

    static func isParameterByte(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
            || byte == 0x2D || byte == 0x5F || byte == 0x2E || byte == 0x5B || byte == 0x5D
    }
}
