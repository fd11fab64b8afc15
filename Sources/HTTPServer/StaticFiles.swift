import Foundation

/// Serves the files under a directory, read once at `init` and cached in memory (fine for a small
/// `Public/` folder; files added later are not seen).
///
/// GET and HEAD only; content type by extension; strong `ETag` from a content hash, `If-None-Match` -> 304;
/// `/` and `/dir/` -> `index.html`; files and folders whose name starts with `.` are not served. A text, JSON,
/// JavaScript or SVG file is also gzip-coded once at `init` (``StaticFiles/File/gzip``): a client that takes gzip
/// gets that variant, with its own ETag (the identity one with `-gz`), `Content-Encoding: gzip` and `Vary`.
/// Thread-safe: immutable after `init`.
public struct StaticFiles: HTTPResponder {
    struct File: Sendable {
        let bytes: [UInt8]
        let etag: String
        let contentType: String
        /// The response's fields, built once: `Content-Type`, `ETag`, `Cache-Control` (`X-Content-Type-Options`
        /// is on every response, see `ResponseHead`).
        let headers: HTTPHeaders
        /// The gzip-coded variant, when the type compresses and it is smaller.
        let gzip: Variant?

        /// A coded variant: its bytes, its own strong ETag, its fields.
        struct Variant: Sendable {
            let bytes: [UInt8]
            let etag: String
            let headers: HTTPHeaders
        }

        init(bytes: [UInt8], etag: String, contentType: String) {
            self.bytes = bytes
            self.etag = etag
            self.contentType = contentType
            headers = [
                HTTPFieldName.contentType: contentType, HTTPFieldName.eTag: etag, HTTPFieldName.cacheControl: "no-cache",
            ]
            let probe = HTTPResponse(status: .ok, headers: [HTTPFieldName.contentType: contentType], body: .bytes(bytes))
            let coded = probe.isCompressible ? GzipStream.encode(bytes) : []
            if !coded.isEmpty, coded.count < bytes.count {
                let tag = String(etag.dropLast()) + "-gz\""
                gzip = Variant(bytes: coded, etag: tag, headers: [
                    HTTPFieldName.contentType: contentType, HTTPFieldName.eTag: tag,
                    HTTPFieldName.cacheControl: "no-cache", HTTPFieldName.contentEncoding: "gzip",
                    HTTPFieldName.vary: "Accept-Encoding",
                ])
            } else {
                gzip = nil
            }
        }
    }

    /// Relative path ("css/app.css") -> file.
    let files: [String: File]

    /// Loads every regular file under `root`. Throws when `root` is not a readable directory.
    public init(root: String) throws {
        guard let realRoot = Self.realPath(root) else {
            throw HTTPError(.internalServerError, "Static root not found: \(root)")
        }
        var files: [String: File] = [:]
        let manager = FileManager.default
        guard let walker = manager.enumerator(atPath: realRoot) else {
            throw HTTPError(.internalServerError, "Static root is not a directory: \(root)")
        }
        while let relative = walker.nextObject() as? String {
            // Dotfiles and dot-folders (`.env`, `.git/`) are never loaded, so never served: a request naming one,
            // plainly or percent-encoded (`/%2eenv`, decoded before the lookup), finds no file and gets 404.
            if relative.split(separator: "/").last?.hasPrefix(".") == true {
                walker.skipDescendants()
                continue
            }
            let full = realRoot + "/" + relative
            // Symlinks are resolved and must stay inside the root: a link out of it is never served.
            guard let real = Self.realPath(full), real.hasPrefix(realRoot + "/") else { continue }
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: real, isDirectory: &isDirectory), !isDirectory.boolValue,
                  let data = manager.contents(atPath: real)
            else { continue }
            let bytes = [UInt8](data)
            files[relative] = File(bytes: bytes, etag: Self.etag(bytes), contentType: ContentTypes.forPath(relative))
        }
        self.files = files
    }

    public func respond(to request: HTTPRequest) -> HTTPResult {
        .now(response(to: request))
    }

    private func response(to request: HTTPRequest) -> HTTPResponse {
        // Only GET and HEAD: files are read-only.
        guard request.method == .get || request.method == .head else {
            var response = HTTPError(.methodNotAllowed, "Method not allowed.").response
            response.headers.add(name: HTTPFieldName.allow, value: "GET, HEAD")
            return response
        }
        guard let relative = Self.relativePath(request.path) else {
            return HTTPError(.badRequest, "Bad path.").response
        }
        guard let file = files[relative] else { return HTTPError(.notFound, "Not found.").response }
        var (bytes, etag, headers) = (file.bytes, file.etag, file.headers)
        if let gzip = file.gzip,
           ContentCoding.negotiated(acceptEncoding: request.headers.values(for: HTTPFieldName.acceptEncoding)) == .gzip {
            (bytes, etag, headers) = (gzip.bytes, gzip.etag, gzip.headers)
        }
        if let condition = request.headers[HTTPFieldName.ifNoneMatch], Self.matches(condition, etag) {
            return HTTPResponse(status: .notModified, headers: headers)
        }
        return HTTPResponse(status: .ok, headers: headers, body: .bytes(bytes))
    }

    /// The cache key for a URL path, or nil when the path is refused.
    static func relativePath(_ path: String) -> String? {
        if let simple = simpleRelativePath(path) { return simple }
        // Percent-decoding must succeed and give valid UTF-8; a malformed escape is refused.
        guard let decoded = PercentDecoding.decode(path) else { return nil }
        // NUL can truncate paths in C APIs: refused.
        guard !decoded.utf8.contains(0) else { return nil }
        // Backslash is a separator on some systems: refused rather than interpreted.
        guard !decoded.utf8.contains(UInt8(ascii: "\\")) else { return nil }
        let segments = decoded.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        // ".." (and ".") segments could climb out of the root, even encoded as %2e%2e: refused after decoding.
        guard !segments.contains(where: { $0 == ".." || $0 == "." }) else { return nil }
        // Empty inner segments ("//") are refused so each file has exactly one URL.
        guard !segments.dropLast().contains(where: \.isEmpty) else { return nil }
        // "/" and "/dir/" serve that directory's index.html.
        let joined = segments.joined(separator: "/")
        return joined.isEmpty || joined.hasSuffix("/") ? joined + "index.html" : joined
    }

    /// The cache key of a plain path (`/`, `/app.css`, `/img/logo.png`, `/dir/`) without decoding or splitting:
    /// it starts with `/`, holds only letters, digits, `-`, `_`, `.` and `/`, has no `//` and no segment starting
    /// with `.`. Such a path means the same decoded or not, so the result equals the general rule's; any other
    /// path gives nil and goes the general way.
    static func simpleRelativePath(_ path: String) -> String? {
        // Over the stored bytes (a native string's, in place): a walk through `String.UTF8View` cost more than the
        // file lookup itself.
        let last = path.utf8.withContiguousStorageIfAvailable { bytes -> UInt8? in
            guard bytes.first == UInt8(ascii: "/") else { return nil }
            var previous = UInt8(ascii: "/")
            for byte in bytes.dropFirst() {
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                     UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
                    break
                case UInt8(ascii: "."), UInt8(ascii: "/"):
                    if previous == UInt8(ascii: "/") { return nil }   // "//", or a segment starting with "."
                default:
                    return nil
                }
                previous = byte
            }
            return previous
        }
        guard let last, let previous = last else { return nil }   // not simple, or not stored contiguously
        let joined = String(path.dropFirst())
        return joined.isEmpty || previous == UInt8(ascii: "/") ? joined + "index.html" : joined
    }

    /// Weak comparison of an `If-None-Match` list against a strong ETag (RFC 9110 §13.1.2).
    static func matches(_ condition: String, _ etag: String) -> Bool {
        condition.split(separator: ",").contains { candidate in
            let tag = candidate.trimmingSpaces
            return tag == "*" || (tag.hasPrefix("W/") ? tag.dropFirst(2) : tag) == etag
        }
    }

    /// A strong ETag: FNV-1a 64-bit hash of the content plus its length.
    static func etag(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return "\"\(String(hash, radix: 16))-\(String(bytes.count, radix: 16))\""
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
