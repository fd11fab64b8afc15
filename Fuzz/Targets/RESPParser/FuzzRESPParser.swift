import Redis

/// libFuzzer target: the RESP reply parser (see Scripts/fuzz). For any input, under small limits: parsing returns
/// or throws (never traps, never allocates past the limits), and feeding the input whole, byte by byte, or in two
/// halves gives the same replies and fails (or not) alike: the result does not depend on how reads split it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRESPParser(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let limits = RESPLimits(maxBulkBytes: 1024, maxElements: 64, maxDepth: 8, maxLineBytes: 256, maxReplyBytes: 4096)
    let whole = parse([bytes[...]], limits)
    let single = parse(bytes.indices.map { bytes[$0...$0] }, limits)
    let halves = parse([bytes[..<(size / 2)], bytes[(size / 2)...]], limits)
    precondition(single.values == whole.values && single.failed == whole.failed, "byte-by-byte differs from whole")
    precondition(halves.values == whole.values && halves.failed == whole.failed, "halves differ from whole")
    return 0
}

private func parse(_ pieces: [ArraySlice<UInt8>], _ limits: RESPLimits) -> (values: [RESPValue], failed: Bool) {
    var parser = RESPParser(limits: limits)
    var values: [RESPValue] = []
    for piece in pieces {
        parser.append(Array(piece))
        do {
            while let value = try parser.next() { values.append(value) }
        } catch {
            return (values, true)
        }
    }
    return (values, false)
}
