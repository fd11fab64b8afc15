import JSON

/// libFuzzer target: the strict JSON parser and serializer (see Scripts/fuzz). For any input: parsing returns or
/// throws (never traps); a parsed value serializes to JSON that parses back to the same value, in both output
/// modes, and the HTML-safe mode never writes `<`, `>` or `&`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONParser(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let value = try? JSONValue.parse(bytes) else { return 0 }
    let plain = value.serialized()
    let safe = value.serialized(htmlSafe: true)
    precondition((try? JSONValue.parse(plain)) == value, "serialize/parse round trip changed the value")
    precondition((try? JSONValue.parse(safe)) == value, "html-safe round trip changed the value")
    precondition(!safe.contains { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") || $0 == UInt8(ascii: "&") })
    return 0
}
