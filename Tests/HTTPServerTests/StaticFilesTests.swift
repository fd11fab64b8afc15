import Foundation
import Testing
@testable import HTTPServer

@Suite struct StaticFilesTests {
    /// A temp root with index.html, app.css, sub/data.json, a secret outside the root and a symlink to it.
    func withRoot(_ body: (String, StaticFiles) throws -> Void) throws {
        let base = NSTemporaryDirectory() + "rowstream-static-\(UUID().uuidString)"
        let root = base + "/public"
        let manager = FileManager.default
        try manager.createDirectory(atPath: root + "/sub", withIntermediateDirectories: true)
        defer { try? manager.removeItem(atPath: base) }
        try Data("<h1>hi</h1>".utf8).write(to: URL(fileURLWithPath: root + "/index.html"))
        try Data("body{}".utf8).write(to: URL(fileURLWithPath: root + "/app.css"))
        try Data("{}".utf8).write(to: URL(fileURLWithPath: root + "/sub/data.json"))
        try Data("x".utf8).write(to: URL(fileURLWithPath: root + "/font.woff2"))
        try Data("top secret".utf8).write(to: URL(fileURLWithPath: base + "/secret.txt"))
        try manager.createSymbolicLink(atPath: root + "/link.txt", withDestinationPath: base + "/secret.txt")
        try body(root, try StaticFiles(root: root))
    }

    func get(_ files: StaticFiles, _ target: String, method: HTTPMethod = .get, headers: HTTPHeaders = [:]) -> HTTPResponse {
        guard case .now(let response) = files.respond(to: HTTPRequest(method: method, target: target, headers: headers)) else {
            return HTTPResponse(status: .internalServerError)
        }
        return response
    }

    func text(_ response: HTTPResponse) -> String {
        guard case .bytes(let bytes) = response.body else { return "" }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func servesFilesWithContentTypes() throws {
        try withRoot { _, files in
            let index = get(files, "/")
            #expect(index.status == .ok)
            #expect(text(index) == "<h1>hi</h1>")
            #expect(index.headers["Content-Type"] == "text/html; charset=utf-8")
            #expect(get(files, "/app.css").headers["Content-Type"] == "text/css; charset=utf-8")
            #expect(get(files, "/sub/data.json").headers["Content-Type"] == "application/json")
            #expect(get(files, "/font.woff2").headers["Content-Type"] == "font/woff2")
            #expect(get(files, "/missing.js").status == .notFound)
            #expect(get(files, "/app.css", method: .head).status == .ok)
            #expect(get(files, "/app.css", method: .post).status == .methodNotAllowed)
        }
    }

    @Test func etagAndIfNoneMatch() throws {
        try withRoot { _, files in
            let first = get(files, "/app.css")
            let etag = try #require(first.headers["ETag"])
            #expect(etag.hasPrefix("\"") && etag.hasSuffix("\""))
            #expect(get(files, "/app.css", headers: ["If-None-Match": etag]).status == .notModified)
            #expect(get(files, "/app.css", headers: ["If-None-Match": "\"other\", W/\(etag)"]).status == .notModified)
            #expect(get(files, "/app.css", headers: ["If-None-Match": "\"other\""]).status == .ok)
            #expect(get(files, "/index.html").headers["ETag"] != etag)
        }
    }

    /// Each way out of the root, with the status it must get: 400 for a path refused as written (dot segments,
    /// encoded or not, NUL, backslashes, bad escapes, empty segments), 404 for a symlink leading outside (never
    /// loaded). The response is the handler's own (no synthetic fallback), and no file's bytes are in it.
    @Test(arguments: [
        ("/../secret.txt", 400), ("/sub/../../secret.txt", 400), ("/%2e%2e/secret.txt", 400),
        ("/%2E%2E/secret.txt", 400), ("/sub/%2e%2e/%2e%2e/secret.txt", 400), ("/index.html%00.css", 400),
        ("/sub\\..\\..\\secret.txt", 400), ("/..%5csecret.txt", 400), ("/link.txt", 404), ("/%zz", 400),
        ("//etc/passwd", 400),
    ])
    func refusesTraversal(_ target: String, _ status: Int) throws {
        try withRoot { _, files in
            guard case .now(let response) = files.respond(to: HTTPRequest(method: .get, target: target, headers: [:]))
            else {
                Issue.record("\(target): not answered at once")
                return
            }
            #expect(response.status.code == status, "\(target)")
            #expect(response.headers["ETag"] == nil, "\(target) served a file")
            #expect(!text(response).contains("top secret"), "\(target) leaked the file outside the root")
        }
    }

    @Test func missingRootThrows() {
        #expect(throws: (any Error).self) { try StaticFiles(root: "/nonexistent-rowstream-\(UUID().uuidString)") }
    }
}

/// Dotfiles in the public folder are never served (issue 13, item 7).
@Suite struct StaticDotfileTests {
    @Test func dotfilesAndDotFoldersAnswer404PlainOrEncoded() throws {
        let root = NSTemporaryDirectory() + "rowstream-dotfiles-\(UUID().uuidString)"
        let manager = FileManager.default
        try manager.createDirectory(atPath: root + "/.git", withIntermediateDirectories: true)
        try manager.createDirectory(atPath: root + "/sub", withIntermediateDirectories: true)
        defer { try? manager.removeItem(atPath: root) }
        for path in ["/.env", "/.git/config", "/sub/.hidden"] {
            try Data("API_KEY=s3cr3t".utf8).write(to: URL(fileURLWithPath: root + path))
        }
        try Data("ok".utf8).write(to: URL(fileURLWithPath: root + "/sub/visible.txt"))
        let files = try StaticFiles(root: root)
        for target in ["/.env", "/%2eenv", "/%2Eenv", "/.git/config", "/%2egit/config", "/sub/.hidden",
                       "/sub/%2ehidden", "/.git/", "/sub/.hidden?x=1"] {
            guard case .now(let response) = files.respond(to: HTTPRequest(method: .get, target: target)),
                  case .bytes(let body) = response.body else {
                Issue.record("no immediate response for \(target)")
                continue
            }
            #expect(response.status == .notFound, "\(target)")
            #expect(!String(decoding: body, as: UTF8.self).contains("s3cr3t"), "\(target)")
        }
        guard case .now(let visible) = files.respond(to: HTTPRequest(method: .get, target: "/sub/visible.txt")) else {
            Issue.record("no immediate response")
            return
        }
        #expect(visible.status == .ok)
    }
}
