/// A connection's request parser, held by reference so that a connection holds it only while it reads requests
/// (``Connection``'s `requests`): made at the first bytes read, let go when a stream opens. A stream's input is only
/// read to see its peer hang up, never parsed again, and the parser's 248 bytes inline were a tenth of an idle
/// stream's memory.
///
/// Thread rules: loop-confined, as its connection.
final class RequestReader {
    @exclusivity(unchecked) var parser: HTTPRequestParser

    init(limits: HTTPParserLimits) { parser = HTTPRequestParser(limits: limits) }
}

extension Connection {
    /// The request reader, made now if there is none (the first bytes read). - Important: loop-confined.
    var requestReader: RequestReader {
        if let reader = requests { return reader }
        let reader = RequestReader(limits: context.configuration.limits)
        requests = reader
        return reader
    }

    /// Unparsed request bytes held (0 with no reader). - Important: loop-confined.
    var bufferedInput: Int { requests?.parser.bufferedByteCount ?? 0 }

    /// Most unparsed input a connection buffers: one request, head and body.
    static func maxBufferedInput(_ limits: HTTPParserLimits) -> Int {
        limits.maxRequestLineBytes + limits.maxHeaderBytes + limits.maxBodyBytes + 4
    }

    /// Most unparsed input buffered while a `.later` answer is pending: one pipelined request head.
    static func maxPendingInput(_ limits: HTTPParserLimits) -> Int {
        limits.maxRequestLineBytes + limits.maxHeaderBytes + 4
    }
}
