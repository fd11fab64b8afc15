/// The parsed request line (RFC 9112 §3): `method SP request-target SP HTTP-version`.
/// Internal to the parser; thread-safe value.
struct RequestLine {
    var method: HTTPMethod
    var target: String
    /// `target` before and after its first `?` (nil: none), made from the bytes here, not by indexing `target`.
    var path: String
    var query: String?
    var version: HTTPVersion
    var headers = HTTPHeaders()

    /// Parses one request line (CRLF already removed); throws 400 for anything not strictly well formed.
    init(_ line: ArraySlice<UInt8>) throws(HTTPParseError) {
        // Over the bytes in place: a slice's indexing checked every byte's bounds twice (a third of a request's
        // parse, once per arriving viewer).
        self = try line.withUnsafeBufferPointer { (line) throws(HTTPParseError) in try RequestLine(parsing: line) }
    }

    private init(parsing line: UnsafeBufferPointer<UInt8>) throws(HTTPParseError) {
        // Exactly two spaces: three parts, found in place (no array of parts per request).
        let space = UInt8(ascii: " ")
        guard let first = line.firstIndex(of: space),
              let second = line[(first + 1)...].firstIndex(of: space),
              !line[(second + 1)...].contains(space)
        else { throw HTTPParseError(.badRequest, "Malformed request line.") }
        let method = UnsafeBufferPointer(rebasing: line[..<first])
        let target = UnsafeBufferPointer(rebasing: line[(first + 1)..<second])
        let version = UnsafeBufferPointer(rebasing: line[(second + 1)...])
        guard !method.isEmpty, method.allSatisfy(Self.isTokenByte) else {
            throw HTTPParseError(.badRequest, "Malformed method.")
        }
        // origin-form ("/path?query"), or "*" for OPTIONS; visible ASCII only.
        let isAsterisk = Self.equals(target, "*") && Self.equals(method, "OPTIONS")
        guard target.first == UInt8(ascii: "/") || isAsterisk, target.allSatisfy({ $0 > 32 && $0 < 127 }) else {
            throw HTTPParseError(.badRequest, "Malformed request target.")
        }
        if Self.equals(version, "HTTP/1.1") {
            self.version = .http1_1
        } else if Self.equals(version, "HTTP/1.0") {
            self.version = .http1_0
        } else {
            throw HTTPParseError(.badRequest, "Unsupported HTTP version.")
        }
        self.method = HTTPMethod(rawValue: String(decoding: method, as: UTF8.self))
        self.target = String(decoding: target, as: UTF8.self)
        if let mark = target.firstIndex(of: UInt8(ascii: "?")) {
            path = String(decoding: UnsafeBufferPointer(rebasing: target[..<mark]), as: UTF8.self)
            query = String(decoding: UnsafeBufferPointer(rebasing: target[(mark + 1)...]), as: UTF8.self)
        } else {
            path = self.target
            query = nil
        }
    }

    /// Whether `bytes` are `text`'s.
    private static func equals(_ bytes: UnsafeBufferPointer<UInt8>, _ text: StaticString) -> Bool {
        bytes.elementsEqual(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// tchar (RFC 9110 §5.6.2): ALPHA, DIGIT and ``!#$%&'*+-.^_`|~``. One bit test per byte (every header name of
    /// every request and response goes through it): bit `b` of ``tokenBitsLow`` for bytes 0-63, bit `b - 64` of
    /// ``tokenBitsHigh`` for 64-127 (`EncodedHeaderFieldsTests.tokenBytes` checks them against the list above).
    @inline(__always)
    static func isTokenByte(_ byte: UInt8) -> Bool {
        byte < 64 ? tokenBitsLow >> UInt64(byte) & 1 == 1
            : byte < 128 && tokenBitsHigh >> UInt64(byte - 64) & 1 == 1
    }

    /// `!#$%&'*+-.` and the digits.
    static let tokenBitsLow: UInt64 = 0x03ff_6cfa_0000_0000
    /// The letters and `^_`|~`.
    static let tokenBitsHigh: UInt64 = 0x57ff_ffff_c7ff_fffe
}
