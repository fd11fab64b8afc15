import HTTPServer
import Tables

/// The sign-in document of access mode `users` (`GET /login`): a server-rendered form that POSTs to `/login`, every value
/// HTML-escaped, no inline script or style (its CSP forbids them), styled by `/app.css`. Signed in, it also
/// offers sign-out (a form that POSTs to `/logout`).
///
/// Thread-safe: stateless.
enum LoginDocument {
    /// The document: `message` above the form (nil: none), `next` where a sign-in goes, `user` prefilled, `signedIn` the
    /// user whose valid cookie came with the request.
    static func response(status: HTTPStatus = .ok, message: String?, next: String, user: String = "",
                         signedIn: String? = nil) -> HTTPResponse {
        let e = HTMLEscaping.escaped
        var html = """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Sign in · Rowstream</title>
        <link rel="icon" href="/favicon.svg" type="image/svg+xml">
        <link rel="stylesheet" href="/app.css">
        </head>
        <body>
        <main class="rs-login">
        <h1>Sign in</h1>

        """
        if let message {
            html += "<p class=\"rs-login-message\" id=\"rs-login-message\" role=\"alert\">\(e(message))</p>\n"
        }
        if let signedIn {
            html += "<form method=\"post\" action=\"/logout\"><p>Signed in as \(e(signedIn)). "
                + "<button type=\"submit\">Sign out</button></p></form>\n"
        }
        // After a refused sign-in the password field gets focus (the user name is kept), is marked invalid and is
        // described by the message, which a screen reader then reads; otherwise the first empty field gets focus.
        let retry = message != nil && !user.isEmpty
        let userFocus = retry || signedIn != nil ? "" : " autofocus"
        let passwordState = retry ? " autofocus aria-invalid=\"true\" aria-describedby=\"rs-login-message\"" : ""
        html += """
        <form method="post" action="/login">
        <input type="hidden" name="next" value="\(e(next))">
        <p><label>User name <input name="user" autocomplete="username" required value="\(e(user))"\(userFocus)></label></p>
        <p><label>Password <input name="password" type="password" autocomplete="current-password" required\(passwordState)></label></p>
        <p><button type="submit">Sign in</button></p>
        </form>
        </main>
        </body>
        </html>

        """
        var response = HTTPResponse.html(Array(html.utf8), status: status)
        response.headers.replaceOrAdd(name: HTTPFieldName.cacheControl, value: "no-store")
        return response
    }

    /// `target` if it is a path on this server (`/...`, not `//host` nor `/\host`, printable ASCII); else `/`.
    static func localPath(_ target: String?) -> String {
        guard let target, target.hasPrefix("/"), !target.hasPrefix("//"), !target.hasPrefix("/\\"),
              target.utf8.count <= 2_048, target.utf8.allSatisfy({ (0x21...0x7E).contains($0) })
        else { return "/" }
        return target
    }

    /// `/login?next=TARGET` with the target percent-encoded (all but unreserved characters and `/`).
    static func location(next target: String) -> String {
        var encoded = ""
        for byte in target.utf8 {
            switch byte {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x2D, 0x2E, 0x5F, 0x7E, 0x2F:
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let digits = Array("0123456789ABCDEF".unicodeScalars)
                encoded += "%" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 15)])
            }
        }
        return "/login?next=" + encoded
    }
}
