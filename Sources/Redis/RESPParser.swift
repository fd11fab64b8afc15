/// An incremental RESP2/RESP3 reply parser: feed it bytes as they arrive (`append`), take whole replies out
/// (`next`). Pure and deterministic: the replies and errors do not depend on how the input was split. After an error
/// it stays failed (the connection must be closed: the stream cannot be resynchronised). A value type, confined to
/// its owner.
public struct RESPParser: Sendable {
    public let limits: RESPLimits
    private var buffer: [UInt8] = []
    private var start = 0
    /// No reply can complete before the buffer holds this many bytes (known from a bulk length).
    private var needed = 0
    private var failure: RedisError?

    public init(limits: RESPLimits = RESPLimits()) {
        self.limits = limits
    }

    /// Bytes received and not yet returned as replies.
    public var bufferedByteCount: Int { buffer.count - start }

    /// Adds received bytes.
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        buffer.append(contentsOf: bytes)
    }

    /// Adds received bytes.
    public mutating func append(_ bytes: [UInt8]) {
        buffer.append(contentsOf: bytes)
    }

    /// The next whole reply, or nil when more bytes are needed. Throws ``RedisError/protocolViolation(_:)`` or
    /// ``RedisError/replyTooLarge`` (and again on every later call).
    public mutating func next() throws(RedisError) -> RESPValue? {
        if let failure { throw failure }
        guard buffer.count >= needed, start < buffer.count else { return nil }
        var index = start
        let value: RESPValue
        do throws(Stop) {
            value = try parseValue(at: &index, depth: 0)
        } catch {
            switch error {
            case .incomplete(let atLeast):
                guard buffer.count - start <= limits.maxReplyBytes, atLeast - start <= limits.maxReplyBytes else {
                    return try fail(.replyTooLarge)
                }
                needed = atLeast
                return nil
            case .invalid(let error):
                return try fail(error)
            }
        }
        guard index - start <= limits.maxReplyBytes else { return try fail(.replyTooLarge) }
        start = index
        needed = 0
        compact()
        return value
    }

    private mutating func fail(_ error: RedisError) throws(RedisError) -> RESPValue? {
        failure = error
        buffer = []
        start = 0
        throw error
    }

    private mutating func compact() {
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= 1 << 20)
            start = 0
            needed = 0
        } else if start >= 64 << 10 && start >= buffer.count / 2 {
            buffer.removeSubrange(0..<start)
            needed = max(0, needed - start)
            start = 0
        }
    }

    private enum Stop: Error {
        /// The reply is not complete; it cannot complete before the buffer holds `atLeast` bytes.
        case incomplete(atLeast: Int)
        case invalid(RedisError)
    }

    private func parseValue(at index: inout Int, depth: Int) throws(Stop) -> RESPValue {
        guard index < buffer.count else { throw .incomplete(atLeast: index + 1) }
        let type = buffer[index]
        index += 1
        switch type {
        case UInt8(ascii: "+"): return .simpleString(text(try line(at: &index)))
        case UInt8(ascii: "-"): return .error(text(try line(at: &index)))
        case UInt8(ascii: ":"): return .integer(try integer(try line(at: &index)))
        case UInt8(ascii: "$"), UInt8(ascii: "!"), UInt8(ascii: "="):
            guard let bytes = try bulk(at: &index) else { return .null }
            return type == UInt8(ascii: "!") ? .error(text(bytes[...])) : .bulkString(bytes)
        case UInt8(ascii: "*"), UInt8(ascii: "~"), UInt8(ascii: ">"):
            guard let count = try aggregateCount(at: &index, depth: depth) else { return .null }
            var values: [RESPValue] = []
            values.reserveCapacity(min(count, 64))
            for _ in 0..<count { values.append(try parseValue(at: &index, depth: depth + 1)) }
            return type == UInt8(ascii: ">") ? .push(values) : .array(values)
        case UInt8(ascii: "%"):
            guard let count = try aggregateCount(at: &index, depth: depth) else { return .null }
            var pairs: [RESPPair] = []
            pairs.reserveCapacity(min(count, 64))
            for _ in 0..<count {
                let key = try parseValue(at: &index, depth: depth + 1)
                pairs.append(RESPPair(key: key, value: try parseValue(at: &index, depth: depth + 1)))
            }
            return .map(pairs)
        case UInt8(ascii: "_"):
            guard try line(at: &index).isEmpty else { throw .invalid(.protocolViolation("null with a payload")) }
            return .null
        case UInt8(ascii: "#"):
            switch Array(try line(at: &index)) {
            case [UInt8(ascii: "t")]: return .boolean(true)
            case [UInt8(ascii: "f")]: return .boolean(false)
            default: throw .invalid(.protocolViolation("boolean not t or f"))
            }
        case UInt8(ascii: ","):
            let body = text(try line(at: &index))
            let lowered = body.lowercased()
            if lowered == "inf" || lowered == "+inf" { return .double(.infinity) }
            if lowered == "-inf" { return .double(-.infinity) }
            if lowered == "nan" { return .double(.nan) }
            guard let value = Double(body), value.isFinite else { throw .invalid(.protocolViolation("bad double")) }
            return .double(value)
        case UInt8(ascii: "("):
            let digits = try line(at: &index)
            let signed = digits.first == UInt8(ascii: "-") || digits.first == UInt8(ascii: "+")
            let body = signed ? digits.dropFirst() : digits
            guard !body.isEmpty, body.allSatisfy({ $0 >= 48 && $0 <= 57 }) else {
                throw .invalid(.protocolViolation("bad big number"))
            }
            return .bigNumber(text(digits))
        default:
            throw .invalid(.protocolViolation("unknown reply type byte \(type)"))
        }
    }

    /// The bytes up to the next CRLF (index moves past it). A CR must be followed by LF.
    private func line(at index: inout Int) throws(Stop) -> ArraySlice<UInt8> {
        let from = index
        var cursor = from
        while cursor < buffer.count {
            let byte = buffer[cursor]
            if byte == UInt8(ascii: "\r") {
                guard cursor + 1 < buffer.count else { throw .incomplete(atLeast: cursor + 2) }
                guard buffer[cursor + 1] == UInt8(ascii: "\n") else {
                    throw .invalid(.protocolViolation("CR without LF"))
                }
                index = cursor + 2
                return buffer[from..<cursor]
            }
            if byte == UInt8(ascii: "\n") { throw .invalid(.protocolViolation("LF without CR")) }
            if cursor - from >= limits.maxLineBytes { throw .invalid(.replyTooLarge) }
            cursor += 1
        }
        throw .incomplete(atLeast: cursor + 1)
    }

    private func integer(_ digits: ArraySlice<UInt8>) throws(Stop) -> Int64 {
        var body = digits
        let negative = body.first == UInt8(ascii: "-")
        if negative || body.first == UInt8(ascii: "+") { body = body.dropFirst() }
        guard !body.isEmpty, body.count <= 19 else { throw .invalid(.protocolViolation("bad integer")) }
        var value: Int64 = 0
        for byte in body {
            guard byte >= 48 && byte <= 57 else { throw .invalid(.protocolViolation("bad integer")) }
            let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times.addingReportingOverflow(Int64(byte - 48))
            guard !overflow1 && !overflow2 else { throw .invalid(.protocolViolation("integer overflow")) }
            value = sum
        }
        return negative ? -value : value
    }

    /// A length-prefixed body: nil for the null length -1.
    private func bulk(at index: inout Int) throws(Stop) -> [UInt8]? {
        let length = try integer(try line(at: &index))
        if length == -1 { return nil }
        guard length >= 0 else { throw .invalid(.protocolViolation("negative length")) }
        guard length <= limits.maxBulkBytes else { throw .invalid(.replyTooLarge) }
        let end = index + Int(length)
        guard end + 2 <= buffer.count else { throw .incomplete(atLeast: end + 2) }
        guard buffer[end] == UInt8(ascii: "\r"), buffer[end + 1] == UInt8(ascii: "\n") else {
            throw .invalid(.protocolViolation("bulk string not followed by CRLF"))
        }
        defer { index = end + 2 }
        return Array(buffer[index..<end])
    }

    /// An aggregate's element count: nil for the null count -1.
    private func aggregateCount(at index: inout Int, depth: Int) throws(Stop) -> Int? {
        let count = try integer(try line(at: &index))
        if count == -1 { return nil }
        guard count >= 0 else { throw .invalid(.protocolViolation("negative count")) }
        guard count <= limits.maxElements, depth < limits.maxDepth else { throw .invalid(.replyTooLarge) }
        return Int(count)
    }

    private func text(_ bytes: ArraySlice<UInt8>) -> String { String(decoding: bytes, as: UTF8.self) }
}
