/// One field of a stream entry (binary-safe). A plain value.
public struct RedisStreamField: Sendable, Equatable {
    public var name: [UInt8]
    public var value: [UInt8]
    public init(name: [UInt8], value: [UInt8]) {
        self.name = name
        self.value = value
    }
    public init(_ name: String, _ value: [UInt8]) { self.init(name: Array(name.utf8), value: value) }
}

/// One stream entry: its ID (`1700000000000-0`) and fields in order. A plain value.
public struct RedisStreamEntry: Sendable, Equatable {
    public var id: String
    public var fields: [RedisStreamField]
    public init(id: String, fields: [RedisStreamField]) {
        self.id = id
        self.fields = fields
    }

    /// The value of the first field named `name`.
    public func value(of name: String) -> [UInt8]? { fields.first { $0.name == Array(name.utf8) }?.value }
}

/// The new entries of one stream in an `XREAD` reply. A plain value.
public struct RedisStreamBatch: Sendable, Equatable {
    public var stream: [UInt8]
    public var entries: [RedisStreamEntry]
    public init(stream: [UInt8], entries: [RedisStreamEntry]) {
        self.stream = stream
        self.entries = entries
    }
}
