import TestSupport

/// A misbehaving upstream: the shared `FixtureServer` with one fault. Requests for a path starting `/good`, and
/// first pages (no `cursor=`), get a valid page (`{"data":[...], "next_cursor":...}`); any other request gets the
/// fault, written raw where framing itself is broken. Every fault's bytes are made before the server starts, so no
/// request timeout covers building them (a 16 MiB gzip bomb takes seconds to make in a sanitized build).
enum FaultUpstream {
    enum Fault: String, CaseIterable, Sendable {
        case hang, reset, truncatedChunked, gzipBomb, tenMegabytePage, invalidUTF8, nonJSONError
    }

    /// Starts the upstream; the caller stops it (`stop()`).
    static func start(_ fault: Fault) throws -> FixtureServer {
        let faultReply = reply(for: fault)
        return try FixtureServer { request in
            guard request.path.hasPrefix("/good") || request.query["cursor"] == nil else { return faultReply }
            let offset = Int(request.query["cursor"] ?? "0") ?? 0
            let items = (offset..<offset + 5).map { "{\"id\":\($0),\"name\":\"row \($0)\"}" }.joined(separator: ",")
            return .json("{\"data\":[\(items)],\"next_cursor\":\"\(offset + 5)\"}")
        }
    }

    /// 16 MiB of zeros in about 100 KiB: twice the client's 8 MiB body cap, and past its decompression-ratio cap.
    private static let gzipBomb = Gzip.zeros(count: 16 << 20)

    private static func reply(for fault: Fault) -> FixtureReply {
        switch fault {
        case .hang:
            return .hang
        case .reset:
            return .reset
        case .truncatedChunked:
            return .raw(Array(("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "400\r\n{\"data\":[{\"id\":1},").utf8))
        case .gzipBomb:
            let bomb = gzipBomb
            return .respond(status: 200, headers: [("Content-Type", "application/json"), ("Content-Encoding", "gzip")],
                            body: bomb)
        case .tenMegabytePage:
            let item = "{\"id\":1,\"name\":\"" + String(repeating: "x", count: 1000) + "\"},"
            return .json("{\"data\":[" + String(repeating: item, count: 10_500) + "{\"id\":2}],\"next_cursor\":null}")
        case .invalidUTF8:
            return .respond(status: 200, headers: [("Content-Type", "application/json")],
                            body: Array("{\"data\":[{\"id\":1,\"name\":\"".utf8) + [0xFF, 0xC0, 0x80]
                                + Array("\"}],\"next_cursor\":null}".utf8))
        case .nonJSONError:
            return .respond(status: 500, headers: [("Content-Type", "text/html")],
                            body: Array("<html><h1>oops</h1></html>".utf8))
        }
    }
}
