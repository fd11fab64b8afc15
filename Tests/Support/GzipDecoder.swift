import CZlib
import Foundation

/// A gzip stream (RFC 1952) decoded with zlib's inflate as its bytes arrive, as a browser decodes a
/// `Content-Encoding: gzip` response: `feed` returns every byte decodable from what came so far. At the end
/// (`isFinished`) zlib has checked the trailer's CRC-32 and length. Confined to the test thread that made it.
public final class GzipDecoder {
    private var stream = z_stream()
    /// The decoded stream ended (trailer read and checked).
    public private(set) var isFinished = false

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public init() {
        precondition(czlib_inflate_init(&stream, 31) == czlib_Z_OK, "inflateInit2")
    }

    deinit { inflateEnd(&stream) }

    /// Decodes `input` (the next bytes on the wire). Throws on a malformed stream (a bad CRC-32 or length, too).
    public func feed(_ input: [UInt8]) throws -> [UInt8] {
        guard !input.isEmpty else { return [] }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        try input.withUnsafeBytes { raw in
            stream.next_in = UnsafeMutablePointer(mutating: raw.assumingMemoryBound(to: Bytef.self).baseAddress)
            stream.avail_in = uInt(raw.count)
            repeat {
                let status = chunk.withUnsafeMutableBytes { out -> Int32 in
                    stream.next_out = out.assumingMemoryBound(to: Bytef.self).baseAddress
                    stream.avail_out = uInt(out.count)
                    return inflate(&stream, czlib_Z_SYNC_FLUSH)
                }
                output.append(contentsOf: chunk[..<(chunk.count - Int(stream.avail_out))])
                if status == czlib_Z_STREAM_END {
                    isFinished = true
                    guard stream.avail_in == 0 else { throw Failure(description: "bytes after the gzip trailer") }
                    break
                }
                if status == czlib_Z_BUF_ERROR { break }  // no progress possible: wait for more input
                guard status == czlib_Z_OK else {
                    throw Failure(description: "inflate: \(status) \(stream.msg.map { String(cString: $0) } ?? "")")
                }
            } while stream.avail_in > 0 || stream.avail_out == 0
            stream.next_in = nil
            stream.next_out = nil
        }
        return output
    }

    /// A whole gzip body decoded; throws unless it ends with a valid trailer.
    public static func decode(_ body: [UInt8]) throws -> [UInt8] {
        let decoder = GzipDecoder()
        let output = try decoder.feed(body)
        guard decoder.isFinished else { throw Failure(description: "no gzip trailer") }
        return output
    }
}
