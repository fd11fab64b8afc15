import HTTPServer

/// libFuzzer target: the HTTP/1.x request parser (see Scripts/fuzz).
/// Properties checked for any input:
/// - fed in one piece or in small chunks, the parser yields the same requests and the same refusal;
/// - a refusal is one of 400, 413, 414, 431, 501 with a fixed message that never contains input bytes;
/// - parsed requests carry no CR, LF or NUL in their target, header names or values.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPRequestParser(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let limits = HTTPParserLimits(maxRequestLineBytes: 256, maxHeaderBytes: 512, maxHeaderCount: 8, maxBodyBytes: 512)
    let whole = outcome(of: [bytes[...]], limits: limits)
    let chunk = max(1, Int(bytes.first ?? 1) % 7 + 1)
    let pieces = stride(from: 0, to: bytes.count, by: chunk).map { bytes[$0..<min(bytes.count, $0 + chunk)] }
    let chunked = outcome(of: pieces, limits: limits)
    precondition(whole.requests == chunked.requests, "chunking changed the parsed requests")
    precondition(whole.error == chunked.error, "chunking changed the refusal")
    if let error = whole.error {
        precondition([400, 413, 414, 431, 501].contains(error.status.code), "unexpected refusal status")
        precondition(error.message.utf8.count < 80 && error.message.utf8.allSatisfy { $0 >= 32 && $0 < 127 })
    }
    for request in whole.parsed {
        precondition(!request.target.utf8.contains { $0 <= 32 || $0 == 127 }, "control byte or space in target")
        for field in request.headers {
            precondition(!field.name.isEmpty && !field.name.utf8.contains { $0 <= 32 || $0 == 58 })
            precondition(!field.value.utf8.contains { $0 == 0 || $0 == 10 || $0 == 13 })
        }
        precondition(request.body.count <= limits.maxBodyBytes)
    }
    return 0
}

private struct Outcome {
    var requests: [String] = []
    var parsed: [HTTPRequest] = []
    var error: HTTPParseError?
}

private func outcome(of pieces: [ArraySlice<UInt8>], limits: HTTPParserLimits) -> Outcome {
    var parser = HTTPRequestParser(limits: limits)
    var result = Outcome()
    for piece in pieces {
        parser.append(piece)
        do {
            while let request = try parser.next() {
                result.parsed.append(request)
                result.requests.append("\(request.method) \(request.target) \(request.headers.map { "\($0.name)=\($0.value)" }) \(request.body)")
            }
        } catch {
            result.error = error
            return result
        }
    }
    return result
}
