import HTTPServer
@testable import RowstreamKit
import Testing

/// The signed-in header of the dashboard documents (``SignedInHeader``) and its place in a rendered document.
@Suite struct SignedInHeaderTests {
    static let hostile = Viewer(name: "<b>\"al&ice\"</b>")

    @Test func usersModeNamesTheViewerEscapedWithSignOut() {
        let html = SignedInHeader(AccessConfiguration(mode: .users)).html(for: Self.hostile)
        #expect(html == "<form class=\"rs-user\" method=\"post\" action=\"/logout\"><span class=\"rs-user-name\">Signed in as "
            + "<strong>&lt;b&gt;&quot;al&amp;ice&quot;&lt;/b&gt;</strong></span>"
            + "<button class=\"rs-button\" type=\"submit\">Sign out</button></form>")
    }

    @Test func proxyModeLinksTheConfiguredLogoutOrShowsTheNameOnly() {
        var access = AccessConfiguration(mode: .proxy)
        access.proxy = TrustedProxy(addresses: [1])
        let plain = SignedInHeader(access).html(for: Viewer(name: "bob"))
        #expect(plain == "<div class=\"rs-user\"><span class=\"rs-user-name\">Signed in as <strong>bob</strong></span></div>")
        access.proxy?.logoutURL = "/oauth2/sign_out?rd=/&x=1"
        #expect(SignedInHeader(access).html(for: Viewer(name: "bob")).contains(
            "<a class=\"rs-button\" href=\"/oauth2/sign_out?rd=/&amp;x=1\">Sign out</a></div>"))
    }

    @Test func nothingForEveryoneNobodyOrTokens() {
        #expect(SignedInHeader(AccessConfiguration(mode: .open)).html(for: .everyone) == "")
        #expect(SignedInHeader(AccessConfiguration(mode: .users)).html(for: .nobody) == "")
        #expect(SignedInHeader(AccessConfiguration(mode: .tokens)).html(for: Viewer(name: "ci")) == "")
    }

    @Test func theDocumentTakesTheHeaderPerRequestWithItsOwnETag() throws {
        let document = RenderedDocument(body: Array("<header>a<!--rs:viewer--></header>".utf8))
        let request = HTTPRequest(method: .get, target: "/tables/t")
        let anonymous = document.response(to: request)
        #expect(anonymous.text == "<header>a</header>")
        let named = document.response(to: request, viewer: "<b>x</b>")
        #expect(named.text == "<header>a<b>x</b></header>")
        let tag = try #require(named.headers[HTTPFieldName.eTag])
        #expect(tag != anonymous.headers[HTTPFieldName.eTag] && tag.hasPrefix("\"") && tag.hasSuffix("\""))
        #expect(named.headers[HTTPFieldName.cacheControl] == "private, no-cache")
        var again = request
        again.headers.add(name: HTTPFieldName.ifNoneMatch, value: tag)
        #expect(document.response(to: again, viewer: "<b>x</b>").status == .notModified)
        #expect(document.response(to: again, viewer: "<b>y</b>").status == .ok, "another viewer: another document")
    }
}

extension HTTPResponse {
    /// A bytes body as text ("" for a stream).
    fileprivate var text: String {
        if case .bytes(let bytes) = body { return String(decoding: bytes, as: UTF8.self) }
        return ""
    }
}
