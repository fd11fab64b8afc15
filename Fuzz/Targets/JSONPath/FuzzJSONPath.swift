import JSON

/// libFuzzer target: JSON path parsing and evaluation (see Scripts/fuzz). The input is `PATH 0x00 JSON`. For any
/// input: path parsing returns or throws; a parsed path's description parses back to the same path; evaluating
/// it never traps and `evaluate` agrees with the first result of `evaluateAll`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONPath(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let split = bytes.firstIndex(of: 0) ?? size
    let pathText = String(decoding: bytes[0..<split], as: UTF8.self)
    guard let path = try? JSONPath(pathText) else { return 0 }
    precondition((try? JSONPath(path.description)) == path, "description does not parse back to the path")
    let json = split < size ? Array(bytes[(split + 1)...]) : []
    guard let value = try? JSONValue.parse(json) else { return 0 }
    let first = path.evaluate(value)
    let all = path.evaluateAll(value)
    if let first { precondition(all.first == first, "evaluate disagrees with evaluateAll") }
    return 0
}
