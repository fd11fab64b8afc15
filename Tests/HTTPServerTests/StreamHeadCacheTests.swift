import Testing
@testable import HTTPServer

/// A loop's cache of the last stream response head (``StreamHeadCache``): the same status and the very same header
/// arrays give the cached array itself; any other status, field or set of encoded fields gives the head encoded
/// anew, byte for byte what ``ResponseHead`` writes.
@Suite struct StreamHeadCacheTests {
    static let security = EncodedHeaderFields(["Content-Security-Policy": "default-src 'self'"])
    static let otherSecurity = EncodedHeaderFields(["Content-Security-Policy": "default-src 'self'"])

    static func stream(status: HTTPStatus = .ok, encoded: EncodedHeaderFields? = security) -> HTTPResponse {
        var response = HTTPResponse.eventStream { _ in }
        response.status = status
        if let encoded { response.headers.replaceOrAdd(encoded) }
        return response
    }

    static func encoded(_ response: HTTPResponse) -> [UInt8] {
        ResponseHead.encode(response, contentLength: nil, close: true, keepAliveHeader: false)
    }

    static func storage(_ bytes: [UInt8]) -> UnsafeRawPointer? {
        bytes.withUnsafeBytes { $0.baseAddress }
    }

    @Test func theSameHeadersGiveTheCachedArray() {
        var cache = StreamHeadCache()
        let first = cache.head(of: Self.stream(), accepting: .identity).head
        let second = cache.head(of: Self.stream(), accepting: .identity).head
        #expect(first == Self.encoded(Self.stream()))
        #expect(Self.storage(first) == Self.storage(second), "encoded once, the array shared")
    }

    @Test func anyOtherHeadIsEncodedAnew() {
        var cache = StreamHeadCache()
        let first = cache.head(of: Self.stream(), accepting: .identity).head

        var withField = Self.stream()
        withField.headers.add(name: "Access-Control-Allow-Origin", value: "https://a.example")
        let added = cache.head(of: withField, accepting: .identity).head
        #expect(added == Self.encoded(withField))
        #expect(String(decoding: added, as: UTF8.self).contains("Access-Control-Allow-Origin: https://a.example\r\n"))
        #expect(Self.storage(added) != Self.storage(first))

        let status = HTTPStatus(code: 200, reason: "Fine")
        #expect(cache.head(of: Self.stream(status: status), accepting: .identity).head == Self.encoded(Self.stream(status: status)))
        #expect(String(decoding: cache.head(of: Self.stream(status: status), accepting: .identity).head, as: UTF8.self).hasPrefix("HTTP/1.1 200 Fine"))

        // Equal fields encoded separately are another set: encoded again, to the same bytes.
        let other = cache.head(of: Self.stream(encoded: Self.otherSecurity), accepting: .identity).head
        #expect(other == Self.encoded(Self.stream(encoded: Self.otherSecurity)))
        let none = cache.head(of: Self.stream(encoded: nil), accepting: .identity).head
        #expect(none == Self.encoded(Self.stream(encoded: nil)))
        #expect(!String(decoding: none, as: UTF8.self).contains("Content-Security-Policy"))

        // And back: the first response's head again, byte for byte.
        #expect(cache.head(of: Self.stream(), accepting: .identity).head == first)
    }

    /// A client that takes gzip gets the head of the gzip-coded response and the coding, kept beside the identity
    /// head: a storm of both kinds of client encodes each once. A response that is not compressible stays identity.
    @Test func eachAcceptedCodingKeepsItsOwnHeadAndCoding() {
        var cache = StreamHeadCache()
        let response = Self.stream()
        let gzip = cache.head(of: response, accepting: .gzip)
        let (coded, coding) = response.coded(for: .gzip)
        #expect(coding == .gzip && gzip.coding == .gzip)
        #expect(gzip.head == Self.encoded(coded))
        #expect(String(decoding: gzip.head, as: UTF8.self).contains("Content-Encoding: gzip\r\n"))
        let identity = cache.head(of: response, accepting: .identity)
        #expect(identity.coding == .identity && identity.head == Self.encoded(response))
        let gzipAgain = cache.head(of: response, accepting: .gzip)
        #expect(gzipAgain.coding == .gzip)
        #expect(Self.storage(gzipAgain.head) == Self.storage(gzip.head), "kept beside the identity head")
        #expect(Self.storage(cache.head(of: response, accepting: .identity).head) == Self.storage(identity.head))

        var untransformed = Self.stream()
        untransformed.headers.replaceOrAdd(name: HTTPFieldName.cacheControl, value: "no-cache, no-transform")
        let plain = cache.head(of: untransformed, accepting: .gzip)
        #expect(plain.coding == .identity, "no-transform: written as it is")
        #expect(plain.head == Self.encoded(untransformed))
    }
}

extension StreamHeadCacheTests {
    /// A stream that is already coded (or says `no-transform`) goes as it is to a client that takes gzip, and the
    /// cache's gzip slot then holds that decision: the next plain stream for a gzip client is coded again.
    @Test func theGzipSlotFollowsEachResponsesOwnCodingDecision() {
        var cache = StreamHeadCache()
        var coded = Self.stream()
        coded.headers.add(name: HTTPFieldName.contentEncoding, value: "br")
        let kept = cache.head(of: coded, accepting: .gzip)
        #expect(kept.coding == .identity, "already coded: not coded twice")
        #expect(kept.head == Self.encoded(coded))
        for _ in 0..<2 {
            let plain = cache.head(of: Self.stream(), accepting: .gzip)
            #expect(plain.coding == .gzip)
            #expect(String(decoding: plain.head, as: UTF8.self).contains("Content-Encoding: gzip\r\n"))
            let again = cache.head(of: coded, accepting: .gzip)
            #expect(again.coding == .identity && again.head == kept.head)
        }
    }
}
