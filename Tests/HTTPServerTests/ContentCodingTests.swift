import Foundation
import Testing
import TestSupport
@testable import HTTPServer

/// `Accept-Encoding` negotiation (RFC 9110 §12.5.3) and gzip-coded `.bytes` responses.
struct ContentCodingTests {
    @Test(arguments: [
        ("gzip", ContentCoding.gzip),
        ("gzip, deflate, br, zstd", .gzip),           // Chromium
        ("GZip", .gzip),
        ("x-gzip", .gzip),
        (" deflate ,\tgzip ; q=0.5 ", .gzip),
        ("gzip;q=1.000", .gzip),
        ("gzip;Q=0.001", .gzip),
        ("*", .gzip),
        ("*;q=0.2, br", .gzip),
        ("", .identity),
        ("identity", .identity),
        ("br, deflate", .identity),
        ("gzip;q=0", .identity),
        ("gzip;q=0.000", .identity),
        ("gzip;q=0, *", .identity),                    // named gzip refused: `*` does not bring it back
        ("*;q=0", .identity),
        ("gzip;q=1.5", .identity),                     // invalid q-values count as refusal
        ("gzip;q=2", .identity),
        ("gzip;q=0.0001", .identity),
        ("gzip;q=", .identity),
        ("gzip;q=abc", .identity),
        ("gzip;q=-1", .identity),
        ("gzipx", .identity),
        ("g zip", .identity),
        (",,,;;;", .identity),
        ("gzip;level=9", .gzip),                       // other parameters are ignored
    ])
    func negotiation(field: String, expected: ContentCoding) {
        #expect(ContentCoding.negotiated(acceptEncoding: [field]) == expected)
    }

    @Test func severalFieldLinesCountAsOneList() {
        #expect(ContentCoding.negotiated(acceptEncoding: ["br", "gzip"]) == .gzip)
        #expect(ContentCoding.negotiated(acceptEncoding: ["gzip;q=0", "*"]) == .identity)
        #expect(ContentCoding.negotiated(acceptEncoding: []) == .identity)
    }

    /// Junk never traps and never yields gzip unless the text names gzip or `*`: every string of up to three
    /// characters over the grammar's own bytes, and every one-character change of fields that do name gzip.
    @Test func junkIsHarmless() {
        let alphabet = Array("gzip*x-;=q0.1, \t\"\u{0}é".unicodeScalars)
        var fields: [String] = [""]
        for _ in 0..<3 {
            fields += fields.filter { $0.unicodeScalars.count == fields.last!.unicodeScalars.count }
                .flatMap { field in alphabet.map { field + String($0) } }
        }
        for seed in ["gzip;q=0.5", "x-gzip, *;q=0", "br;q=1, gzip;q=1.000"] {
            let scalars = Array(seed.unicodeScalars)
            for index in scalars.indices {
                fields.append(String(String.UnicodeScalarView(scalars[..<index] + scalars[(index + 1)...])))
                for replacement in alphabet {
                    var changed = scalars
                    changed[index] = replacement
                    fields.append(String(String.UnicodeScalarView(changed)))
                }
            }
        }
        #expect(fields.count > 3_000)
        for field in fields where ContentCoding.negotiated(acceptEncoding: [field]) == .gzip {
            #expect(field.lowercased().contains("gzip") || field.contains("*"), "\(field.debugDescription)")
        }
    }

    @Test func aBodyIsGzipCodedOnlyWhenAskedAndWorthIt() async throws {
        let page = Array(String(repeating: "<tr><td>row</td><td>42</td></tr>\n", count: 100).utf8)
        var builder = RouterBuilder()
        builder.get("/page") { _, _ in .now(.html(page)) }
        builder.get("/small") { _, _ in .now(.json(Array("{\"ok\":true}".utf8))) }
        builder.get("/tagged") { _, _ in
            var response = HTTPResponse.html(page)
            response.headers.add(name: HTTPFieldName.eTag, value: "\"v1\"")
            return .now(response)
        }
        try await withLiveServer(responder: builder.build()) { _, port in
            let client = try TestConnection(port: port)
            let gzip = ["Accept-Encoding": "gzip, deflate"]
            let head = try await client.exchange("GET", "/page", headers: gzip)
            #expect(head.headers["content-encoding"] == "gzip")
            #expect(head.headers["vary"] == "Accept-Encoding")
            let length = try #require(Int(head.headers["content-length"] ?? ""))
            #expect(length < page.count / 10)
            // HEAD: the same length as GET; no body.
            let headOnly = try await client.exchange("HEAD", "/page", headers: gzip)
            #expect(headOnly.headers["content-length"] == head.headers["content-length"])
            // Raw bytes: decoded with zlib, trailer checked.
            try client.send("GET /page HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n\r\n")
            _ = try await client.readHead()
            #expect(try GzipDecoder.decode(try await client.readBytes(length)) == page)
            // Not asked, refused, too small, or a validator: as it is.
            for (path, headers) in [("/page", [:]), ("/page", ["Accept-Encoding": "gzip;q=0"]), ("/small", gzip),
                                    ("/tagged", gzip)] {
                let response = try await client.exchange("GET", path, headers: headers)
                #expect(response.headers["content-encoding"] == nil)
                #expect(response.headers["vary"] == nil)
                #expect(Array(response.body.utf8) == (path == "/small" ? Array("{\"ok\":true}".utf8) : page))
            }
        }
    }
}

extension ContentCodingTests {
    @Test func staticFilesServeAGzipVariantCodedOnceWithItsOwnETag() throws {
        let root = NSTemporaryDirectory() + "rowstream-gzip-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let script = Array(String(repeating: "function row(n) { return '<tr>' + n + '</tr>'; }\n", count: 60).utf8)
        try Data(script).write(to: URL(fileURLWithPath: root + "/app.js"))
        try Data([0x89, 0x50, 0x4e, 0x47] + [UInt8](repeating: 7, count: 400)).write(to: URL(fileURLWithPath: root + "/logo.png"))
        let files = try StaticFiles(root: root)
        func get(_ path: String, _ headers: HTTPHeaders) -> HTTPResponse {
            guard case .now(let response) = files.respond(to: HTTPRequest(method: .get, target: path, headers: headers))
            else { return HTTPResponse(status: .internalServerError) }
            return response
        }
        func body(_ response: HTTPResponse) -> [UInt8] { if case .bytes(let bytes) = response.body { bytes } else { [] } }
        let plain = get("/app.js", [:])
        let coded = get("/app.js", [HTTPFieldName.acceptEncoding: "gzip"])
        #expect(body(plain) == script && plain.headers[HTTPFieldName.contentEncoding] == nil)
        #expect(plain.headers[HTTPFieldName.vary] == nil)
        #expect(coded.headers[HTTPFieldName.contentEncoding] == "gzip")
        #expect(coded.headers[HTTPFieldName.vary] == "Accept-Encoding")
        #expect(try GzipDecoder.decode(body(coded)) == script)
        let plainTag = try #require(plain.headers[HTTPFieldName.eTag])
        let codedTag = try #require(coded.headers[HTTPFieldName.eTag])
        #expect(plainTag != codedTag)
        // Each variant revalidates with its own tag only.
        #expect(get("/app.js", [HTTPFieldName.acceptEncoding: "gzip", HTTPFieldName.ifNoneMatch: codedTag]).status
                == .notModified)
        #expect(get("/app.js", [HTTPFieldName.acceptEncoding: "gzip", HTTPFieldName.ifNoneMatch: plainTag]).status == .ok)
        #expect(get("/app.js", [HTTPFieldName.ifNoneMatch: codedTag]).status == .ok)
        #expect(get("/app.js", [HTTPFieldName.ifNoneMatch: plainTag]).status == .notModified)
        // Not a compressible type: as it is.
        #expect(get("/logo.png", [HTTPFieldName.acceptEncoding: "gzip"]).headers[HTTPFieldName.contentEncoding] == nil)
    }
}
