/// Decodes an HTTP/1.1 `Transfer-Encoding: chunked` body as it arrives, in pieces cut anywhere: what a proxy such
/// as nginx sends an HTTP/1.1 client for a body of unknown length (an event stream). Chunk extensions and
/// trailers are skipped. A value, confined to its connection.
public struct ChunkedDecoder: Sendable {
    private enum State: Sendable {
        case size(line: [UInt8])
        case data(left: Int)
        case dataEnd(crlfLeft: Int)
        case trailers(line: [UInt8])
        case finished
    }

    private var state = State.size(line: [])

    public init() {}

    /// Whether the last (zero-size) chunk and the trailers have been read: the body is complete.
    public var isFinished: Bool { if case .finished = state { true } else { false } }

    /// The body bytes in `bytes`.
    public mutating func feed(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var body: [UInt8] = []
        for byte in bytes {
            switch state {
            case .size(var line):
                guard byte == 10 else {
                    line.append(byte)
                    state = .size(line: line)
                    continue
                }
                let digits = line.prefix { $0 != 59 && $0 != 13 }   // before `;extension` and CR
                let size = Int(String(decoding: digits, as: UTF8.self).trimmingSpaces, radix: 16) ?? 0
                state = size == 0 ? .trailers(line: []) : .data(left: size)
            case .data(let left):
                body.append(byte)
                state = left == 1 ? .dataEnd(crlfLeft: 2) : .data(left: left - 1)
            case .dataEnd(let left):
                state = left == 1 ? .size(line: []) : .dataEnd(crlfLeft: left - 1)
            case .trailers(var line):
                guard byte == 10 else {
                    line.append(byte)
                    state = .trailers(line: line)
                    continue
                }
                state = line.filter({ $0 != 13 }).isEmpty ? .finished : .trailers(line: [])
            case .finished:
                break
            }
        }
        return body
    }
}

private extension String {
    var trimmingSpaces: String { String(filter { $0 != " " && $0 != "\t" }) }
}
