/// One argument of a command, as the bytes sent (binary-safe). Strings are sent as UTF-8, integers in decimal.
/// A plain value.
public struct RedisArgument: Sendable, Equatable, Hashable, ExpressibleByStringInterpolation,
    ExpressibleByIntegerLiteral
{
    public var bytes: [UInt8]

    public init(_ bytes: [UInt8]) { self.bytes = bytes }
    public init(_ string: String) { bytes = Array(string.utf8) }
    public init(_ integer: Int) { bytes = Array(String(integer).utf8) }
    public init(stringLiteral value: String) { self.init(value) }
    public init(stringInterpolation: DefaultStringInterpolation) {
        self.init(String(stringInterpolation: stringInterpolation))
    }
    public init(integerLiteral value: Int) { self.init(value) }
}

/// Encodes commands as RESP arrays of bulk strings (what every Redis command is on the wire).
enum RESPEncoder {
    static func append(_ arguments: [RedisArgument], to output: inout [UInt8]) {
        output.append(UInt8(ascii: "*"))
        output.append(contentsOf: String(arguments.count).utf8)
        output.append(contentsOf: [13, 10])
        for argument in arguments {
            output.append(UInt8(ascii: "$"))
            output.append(contentsOf: String(argument.bytes.count).utf8)
            output.append(contentsOf: [13, 10])
            output.append(contentsOf: argument.bytes)
            output.append(contentsOf: [13, 10])
        }
    }
}
