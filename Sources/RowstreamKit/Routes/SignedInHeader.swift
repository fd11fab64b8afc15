import Access
import Tables

/// Who is signed in, in the header of every dashboard document (a table's page, a page of tables): filled in per
/// request where the templates say `<!--rs:viewer-->` (``RenderedDocument/response(to:viewer:)``), every value
/// escaped, no script.
/// - mode `users`: "Signed in as NAME" and a Sign out button (a form that POSTs to `/logout`);
/// - mode `proxy`: the name the proxy sent, and a Sign out link to the proxy's own sign-out URL when one is configured
///   (`access.proxy.logout`); without one, the name only (signing out is the proxy's business: docs/SECURITY.md);
/// - modes `none` and `tokens` (and a viewer without a name): nothing.
///
/// Thread-safe: a value.
struct SignedInHeader: Sendable, Equatable {
    static let placeholder = "<!--rs:viewer-->"

    let mode: AccessMode
    /// The proxy's sign-out URL (mode `proxy`).
    let proxyLogout: String?

    init(_ access: AccessConfiguration) {
        mode = access.mode ?? .open
        proxyLogout = access.proxy?.logoutURL
    }

    /// The header's markup for `viewer` ("" when there is nothing to show).
    func html(for viewer: Viewer) -> String {
        guard !viewer.isEveryone, !viewer.name.isEmpty else { return "" }
        let name = "<span class=\"rs-user-name\">Signed in as <strong>\(HTMLEscaping.escaped(viewer.name))</strong></span>"
        switch mode {
        case .users:
            return "<form class=\"rs-user\" method=\"post\" action=\"/logout\">\(name)"
                + "<button class=\"rs-button\" type=\"submit\">Sign out</button></form>"
        case .proxy:
            let link = proxyLogout.map {
                "<a class=\"rs-button\" href=\"\(HTMLEscaping.escaped($0))\">Sign out</a>"
            } ?? ""
            return "<div class=\"rs-user\">\(name)\(link)</div>"
        case .open, .tokens:
            return ""
        }
    }
}
