import Foundation
import Testing
@testable import HTTPServer

/// The allocation-free shortcuts of the request path give what the general rules give.
@Suite struct FastPathTests {
    /// The general rule of `StaticFiles.relativePath`, without the shortcut (as it was before it).
    private func generalRelativePath(_ path: String) -> String? {
        guard let decoded = PercentDecoding.decode(path), !decoded.utf8.contains(0),
              !decoded.utf8.contains(UInt8(ascii: "\\")) else { return nil }
        let segments = decoded.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        guard !segments.contains(where: { $0 == ".." || $0 == "." }),
              !segments.dropLast().contains(where: \.isEmpty) else { return nil }
        let joined = segments.joined(separator: "/")
        return joined.isEmpty || joined.hasSuffix("/") ? joined + "index.html" : joined
    }

    @Test(arguments: [
        "/", "/app.css", "/app.js", "/img/logo.png", "/dir/", "/a/b/c.txt", "/a.", "/a..b", "/a-b_c/D9",
        "//", "/a//b", "/.", "/..", "/a/.", "/a/..", "/.hidden", "/a/.b", "/%2e%2e/x", "/a%2Fb", "/a\\b",
        "/caf%C3%A9", "/x%", "/a b", "/~user", "*", "/a/b/", "/index.html",
    ])
    func simplePathsMatchTheGeneralRule(path: String) {
        if let simple = StaticFiles.simpleRelativePath(path) {
            #expect(simple == generalRelativePath(path))
        }
        #expect(StaticFiles.relativePath(path) == generalRelativePath(path))
    }

    @Test func theShortcutTakesPlainPaths() {
        #expect(StaticFiles.simpleRelativePath("/app.css") == "app.css")
        #expect(StaticFiles.simpleRelativePath("/") == "index.html")
        #expect(StaticFiles.simpleRelativePath("/docs/") == "docs/index.html")
        #expect(StaticFiles.simpleRelativePath("/%61pp.css") == nil)
        #expect(StaticFiles.simpleRelativePath("/../x") == nil)
    }

    @Test func headerNamesCompareIgnoringASCIICaseOnly() {
        #expect(HTTPHeaders.sameName("Content-Length", "content-length"))
        #expect(HTTPHeaders.sameName("CONNECTION", "connection"))
        #expect(!HTTPHeaders.sameName("Connection", "Connectiom"))
        #expect(!HTTPHeaders.sameName("Host", "Hos"))
        // Only letters fold: "@" (0x40) and "`" (0x60) differ by the case bit but are different bytes.
        #expect(!HTTPHeaders.sameName("a@", "a`"))
        #expect(!HTTPHeaders.sameName("x[", "x{"))
        let headers: HTTPHeaders = ["Connection": "Keep-Alive, Upgrade", "HOST": "a", "host": "b"]
        #expect(headers.count(of: "Host") == 2)
        #expect(headers["connection"] == "Keep-Alive, Upgrade")
        #expect(headers.hasToken("keep-alive", in: "Connection"))
        #expect(!headers.hasToken("close", in: "Connection"))
    }

    @Test func responseHeadIsWrittenInFull() {
        var response = HTTPResponse(status: .ok, headers: ["Content-Type": "text/css", "Content-Length": "9"])
        response.headers.add(name: "Bad Name", value: "x")
        response.headers.add(name: "X-Split", value: "a\r\nb")
        response.headers.add(name: "x-content-type-options", value: "sniff-away")  // the server's own, once
        let head = ResponseHead.encode(response, contentLength: 1234567, close: false, keepAliveHeader: true)
        #expect(String(decoding: head, as: UTF8.self)
            == "HTTP/1.1 200 OK\r\nContent-Type: text/css\r\nX-Content-Type-Options: nosniff\r\n"
            + "Content-Length: 1234567\r\nConnection: keep-alive\r\n\r\n")
        let notFound = ResponseHead.encode(HTTPResponse(status: .notFound), contentLength: 0, close: true,
                                           keepAliveHeader: false)
        #expect(String(decoding: notFound, as: UTF8.self)
            == "HTTP/1.1 404 Not Found\r\nX-Content-Type-Options: nosniff\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
    }
}

/// Event loops default to the CPUs the process may use.
@Suite struct UsableCPUsTests {
    @Test func theAffinityMaskIsCounted() {
        #expect(UsableCPUs.count(status: "Name:\tx\nCpus_allowed:\t1\nCpus_allowed_list:\t0\n") == 1)
        #expect(UsableCPUs.count(status: "Cpus_allowed:\tff,00000003\n") == 10)
        #expect(UsableCPUs.count(status: "Cpus_allowed:\t0\n") == nil)
        #expect(UsableCPUs.count(status: "Name:\tx\n") == nil)
        #expect(UsableCPUs.count() >= 1)
        #expect(UsableCPUs.count() <= ProcessInfo.processInfo.activeProcessorCount)
    }
}
