/// The parsed request line (RFC 9112 §3): `method SP request-target SP HTTP-version`.
/// Internal to the parser; thread-safe value.
struct RequestLine {
    var method: HTTPMethod
    var target: String
    var version: HTTPVersion
    var headers = HTTPHeaders()

    /// Parses one request line (CRLF already removed); throws 400 for anything not strictly well formed.
    init(_ line: ArraySlice<UInt8>) throws(HTTPParseError) {
        let parts = line.split(separator: UInt8(ascii: " "), maxSplits: 3, omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw HTTPParseError(.badRequest, "Malformed request line.") }
        let (method, target, version) = (parts[0], parts[1], parts[2])
        guard !method.isEmpty, method.allSatisfy(Self.isTokenByte) else {
            throw HTTPParseError(.badRequest, "Malformed method.")
        }
        // origin-form ("/path?query"), or "*" for OPTIONS; visible ASCII only.
        let isAsterisk = target.elementsEqual("*".utf8) && method.elementsEqual("OPTIONS".utf8)
        guard target.first == UInt8(ascii: "/") || isAsterisk, target.allSatisfy({ $0 > 32 && $0 < 127 }) else {
            throw HTTPParseError(.badRequest, "Malformed request target.")
        }
        if version.elementsEqual("HTTP/1.1".utf8) {
            self.version = .http1_1
        } else if version.elementsEqual("HTTP/1.0".utf8) {
            self.version = .http1_0
        } else {
            throw HTTPParseError(.badRequest, "Unsupported HTTP version.")
        }
        self.method = HTTPMethod(rawValue: String(decoding: method, as: UTF8.self))
        self.target = String(decoding: target, as: UTF8.self)
    }

    /// tchar (RFC 9110 §5.6.2): ALPHA, DIGIT and ``!#$%&'*+-.^_`|~``.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}
