import Foundation

/// A request as the fixture server received it, and when: the server's request log (`FixtureServer.requests`) keeps
/// these in arrival order, and its handler gets each one, so a reply may depend on the request's `number`.
public struct FixtureRequest: Sendable {
    public var method: String
    /// Path and query, as sent.
    public var target: String
    /// Header names lower-cased.
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]
    /// 1-based, in the order the server received its requests (set by the server before its handler runs).
    public var number = 0
    /// When the server had read the whole request (wall clock, to compare with an HTTP date).
    public var arrived = Date()

    /// A request as received (the fixture server reads these off its sockets; an in-process upstream builds them).
    public init(method: String, target: String, headers: [(name: String, value: String)], body: [UInt8]) {
        self.method = method
        self.target = target
        self.headers = headers
        self.body = body
    }

    public var path: String { String(target.split(separator: "?", maxSplits: 1).first ?? "") }

    /// The raw (still percent-encoded) query string, "" if none.
    public var rawQuery: String {
        guard let question = target.firstIndex(of: "?") else { return "" }
        return String(target[target.index(after: question)...])
    }

    /// Query parameters, percent-decoded.
    public var query: [String: String] {
        var result: [String: String] = [:]
        for pair in rawQuery.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let value = parts.count > 1 ? String(parts[1]) : ""
            result[String(parts[0]).percentDecoded ?? ""] = value.percentDecoded
        }
        return result
    }

    public func header(_ name: String) -> String? {
        headers.last(where: { $0.name == name.lowercased() })?.value
    }
}

/// What the fixture server does with a request.
public indirect enum FixtureReply: Sendable {
    /// A complete answer with a Content-Length.
    case respond(status: Int, headers: [(name: String, value: String)], body: [UInt8])
    /// Waits, then replies (stops waiting early when the server stops).
    case slow(Duration, FixtureReply)
    /// Waits until the test releases one of `gate`'s replies (or the server stops), then replies.
    case held(ReplyGate, FixtureReply)
    /// Writes these bytes as they are (framing and all), then closes the connection.
    case raw([UInt8])
    /// Closes the connection with an RST (SO_LINGER 0), answering nothing.
    case reset
    /// Never answers; returns when the client closes the connection or the server stops.
    case hang
    /// Declares `declared` body bytes, sends `sent` of them, then closes the connection.
    case closeMidBody(declared: Int, sent: Int)
    /// A chunked body of `chunks` chunks of `chunkBytes` bytes each.
    case chunked(chunkBytes: Int, chunks: Int)
    /// A 302 to `location`.
    case redirect(to: String, headers: [(name: String, value: String)] = [])

    public static func json(
        _ text: String, status: Int = 200, headers: [(name: String, value: String)] = []
    ) -> FixtureReply {
        json(Array(text.utf8), status: status, headers: headers)
    }

    /// A JSON answer: `Content-Type: application/json`, then `headers`.
    public static func json(
        _ bytes: [UInt8], status: Int = 200, headers: [(name: String, value: String)] = []
    ) -> FixtureReply {
        .respond(status: status, headers: [("Content-Type", "application/json")] + headers, body: bytes)
    }
}

extension String {
    /// Minimal percent-decoding for test assertions.
    public var percentDecoded: String? {
        var bytes: [UInt8] = []
        var iterator = Array(utf8).makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%") {
                guard let high = iterator.next(), let low = iterator.next(),
                      let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16) else { return nil }
                bytes.append(value)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
