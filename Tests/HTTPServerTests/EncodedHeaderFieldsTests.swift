import Testing
@testable import HTTPServer

/// Header fields encoded once (``EncodedHeaderFields``): on a response they replace the fields of the same names,
/// are found and iterated like any field, become plain fields again before a change to one of their names, and
/// reach the head once, with the same checks as any field.
@Suite struct EncodedHeaderFieldsTests {
    static let security = EncodedHeaderFields(["Content-Security-Policy": "default-src 'self'",
                                               "Referrer-Policy": "same-origin"])

    static func text(_ response: HTTPResponse, contentLength: Int? = 3) -> String {
        let head = ResponseHead.encode(response, contentLength: contentLength, close: false, keepAliveHeader: false)
        return String(decoding: head, as: UTF8.self)
    }

    @Test func theyReplaceFieldsOfTheSameNameAndReachTheHeadOnce() {
        var response = HTTPResponse(status: .ok, headers: [
            "content-security-policy": "script-src *", "Content-Type": "text/css", "REFERRER-POLICY": "unsafe-url",
            "Content-Security-Policy": "img-src *",
        ])
        response.headers.replaceOrAdd(Self.security)
        #expect(Self.text(response) == "HTTP/1.1 200 OK\r\nContent-Type: text/css\r\n"
            + "Content-Security-Policy: default-src 'self'\r\nReferrer-Policy: same-origin\r\n"
            + "X-Content-Type-Options: nosniff\r\nContent-Length: 3\r\n\r\n")
        #expect(response.headers["content-security-policy"] == "default-src 'self'")
        #expect(response.headers["Referrer-Policy"] == "same-origin")
        #expect(response.headers.values(for: "Content-Security-Policy") == ["default-src 'self'"])
        #expect(response.headers.count == 3)
        #expect(response.headers.contains("referrer-policy"))
        #expect(response.headers.map(\.name) == ["Content-Type", "Content-Security-Policy", "Referrer-Policy"])
        #expect(response.headers.description
            == "Content-Type: text/css\nContent-Security-Policy: default-src 'self'\nReferrer-Policy: same-origin")
    }

    @Test func setTwiceTheyAreStillOnce() {
        var response = HTTPResponse(status: .ok)
        response.headers.replaceOrAdd(Self.security)
        response.headers.replaceOrAdd(Self.security)
        response.headers.replaceOrAdd(EncodedHeaderFields(["Referrer-Policy": "no-referrer"]))
        #expect(response.headers.count(of: "Content-Security-Policy") == 1)
        #expect(response.headers.values(for: "Referrer-Policy") == ["no-referrer"])
        #expect(Self.text(response, contentLength: nil) == "HTTP/1.1 200 OK\r\n"
            + "Content-Security-Policy: default-src 'self'\r\nReferrer-Policy: no-referrer\r\n"
            + "X-Content-Type-Options: nosniff\r\n\r\n")
    }

    @Test func aChangeToOneOfTheirNamesAppliesToIt() {
        var replaced = HTTPHeaders()
        replaced.replaceOrAdd(Self.security)
        replaced.replaceOrAdd(name: "content-security-policy", value: "default-src 'none'")
        #expect(replaced.values(for: "Content-Security-Policy") == ["default-src 'none'"])
        #expect(replaced["Referrer-Policy"] == "same-origin")

        var removed = HTTPHeaders()
        removed.replaceOrAdd(Self.security)
        removed.remove(name: "Referrer-Policy")
        #expect(removed["Referrer-Policy"] == nil)
        #expect(removed["Content-Security-Policy"] == "default-src 'self'")
        #expect(removed.count == 1)

        var added = HTTPHeaders()
        added.replaceOrAdd(Self.security)
        added.add(name: "Referrer-Policy", value: "origin")
        #expect(added.values(for: "referrer-policy") == ["same-origin", "origin"], "added after, as before")

        var other = HTTPHeaders()
        other.replaceOrAdd(Self.security)
        other.add(name: "Vary", value: "Origin")
        other.replaceOrAdd(name: "Access-Control-Allow-Origin", value: "https://a.example")
        #expect(other.count == 4)
        #expect(other.encoded != nil, "a change to another name leaves them encoded")
    }

    @Test func theyAreCheckedOnceLikeAnyField() {
        let fields = EncodedHeaderFields(["X-Split": "a\r\nSet-Cookie: evil=1", "Bad Name": "x", "": "empty",
                                          "Content-Length": "1", "connection": "close",
                                          "Transfer-Encoding": "chunked", "X-Content-Type-Options": "sniff",
                                          "X-Nul": "a\0b", "X-Fine": "yes"])
        #expect(fields.fields.map(\.name) == ["X-Fine"])
        #expect(String(decoding: fields.bytes, as: UTF8.self) == "X-Fine: yes\r\n")
        var response = HTTPResponse(status: .noContent)
        response.headers.replaceOrAdd(fields)
        #expect(Self.text(response)
            == "HTTP/1.1 204 No Content\r\nX-Fine: yes\r\nX-Content-Type-Options: nosniff\r\n\r\n")
    }

    /// The head's bound holds for every part at its largest: a long reason with control characters (dropped), a
    /// large length, `Connection: close` and many fields, plain and encoded, some dropped.
    @Test func theHeadFitsItsBound() {
        var headers = HTTPHeaders()
        for index in 0..<200 { headers.add(name: "X-Field-\(index)", value: String(repeating: "v", count: index)) }
        headers.add(name: "X-Bad", value: "\r\n")
        headers.replaceOrAdd(EncodedHeaderFields(["X-Encoded": String(repeating: "e", count: 5000)]))
        let reason = "Reason\u{7f}\r\n" + String(repeating: "é", count: 300)
        let response = HTTPResponse(status: HTTPStatus(code: 599, reason: reason), headers: headers)
        let head = String(decoding: ResponseHead.encode(response, contentLength: Int.max, close: true,
                                                        keepAliveHeader: true), as: UTF8.self)
        #expect(head.hasPrefix("HTTP/1.1 599 Reason" + String(repeating: "é", count: 300) + "\r\nX-Field-0: \r\n"))
        #expect(head.contains("X-Field-199: " + String(repeating: "v", count: 199) + "\r\nX-Encoded: e"))
        #expect(!head.contains("X-Bad"))
        #expect(head.hasSuffix(
            "X-Content-Type-Options: nosniff\r\nContent-Length: \(Int.max)\r\nConnection: close\r\n\r\n"))
    }

    /// RFC 9110 §5.6.2's tchar, byte by byte, against the bit masks.
    @Test func tokenBytes() {
        let tchar = Set("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)
        for byte in UInt8.min...UInt8.max {
            #expect(RequestLine.isTokenByte(byte) == tchar.contains(byte), "\(byte)")
        }
    }

    /// An ASCII path splits at its `/` bytes exactly as its Characters split; any other path the Character way.
    @Test(arguments: ["", "/", "//", "/a", "/a/", "/a//b", "a/b", "/app.css", "/tables/{x}/stream", "/%2F/x?y",
                      "/\r\n/x", "/é/x", "/a/\u{301}b", "/\u{301}/x"])
    func pathSegments(_ path: String) {
        let trimmed = path.hasPrefix("/") ? path.dropFirst() : Substring(path)
        #expect(RouteSegment.pathSegments(path) == trimmed.split(separator: "/", omittingEmptySubsequences: false))
    }
}
