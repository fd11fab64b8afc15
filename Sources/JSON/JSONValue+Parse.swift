extension JSONValue {
    /// Parses one JSON text (RFC 8259, strict) from UTF-8 bytes.
    ///
    /// Rejects: trailing data after the value (whitespace aside), invalid UTF-8, unpaired surrogate
    /// escapes (they are an error, not replaced with U+FFFD), leading zeros, `NaN`/`Infinity`,
    /// numbers too large for a finite `Double`, control characters inside strings, and nesting of
    /// arrays/objects deeper than `maxDepth` (the parser is iterative, so depth never costs stack).
    /// `maxDepth` is capped at `depthCap`: comparing, serializing and freeing a `JSONValue` recurse,
    /// so a deeper value would be unsafe to use even though parsing it is not.
    /// Duplicate object keys: the last one wins.
    /// Integers without fraction or exponent that fit `Int64` become `.int`, larger ones `.bigInteger`
    /// (the literal, exact), other numbers `.double`.
    ///
    /// Thread-safe: pure function.
    public static func parse(_ bytes: [UInt8], maxDepth: Int = 64) throws(JSONError) -> JSONValue {
        try bytes.withUnsafeBufferPointer { buffer in parse(buffer: buffer, maxDepth: maxDepth) }.get()
    }

    /// Parses from borrowed bytes; see `parse(_:maxDepth:)`.
    public static func parse(buffer: UnsafeBufferPointer<UInt8>, maxDepth: Int = 64) -> Result<JSONValue, JSONError> {
        var parser = JSONParser(buffer, maxDepth: min(maxDepth, depthCap))
        do throws(JSONError) {
            return .success(try parser.parseDocument())
        } catch {
            return .failure(error)
        }
    }

    /// The largest nesting depth `parse` ever accepts, whatever `maxDepth` says.
    public static let depthCap = 512

    /// Parses one JSON text from a string (its UTF-8 bytes); see `parse(_:maxDepth:)`.
    public static func parse(_ string: String, maxDepth: Int = 64) throws(JSONError) -> JSONValue {
        var string = string
        return try string.withUTF8 { buffer in parse(buffer: buffer, maxDepth: maxDepth) }.get()
    }
}
