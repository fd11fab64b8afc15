import Access
import Foundation
import HTTPServer
import Sealing

/// libFuzzer target: what the access layer reads from a request (see Scripts/fuzz, docs/SECURITY.md). For any
/// input: the `Authorization` parser returns nil or a token68 of at most 512 characters found in the input, which
/// parses back to itself; an IPv4 address parses only from its own dotted form; the `Cookie` parser returns nil or
/// one pair's value; the input as a session cookie opens only if it is the one genuine cookie; and the access
/// responder (mode users), given the input as the `Authorization` and `Cookie` headers and as a proxy's identity
/// headers from a peer that is not the proxy, answers 200 exactly for the valid token or the genuine cookie, 401 or
/// 303 otherwise, and never traps.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAccessCredentials(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    if let token = BearerCredential.token(from: text) {
        precondition(token.utf8.count <= BearerCredential.maxLength && text.hasSuffix(token), "token not from the input")
        precondition(BearerCredential.token(from: "Bearer " + token) == token, "a token does not parse back")
    }
    if let address = IPv4Address.parse(text) {
        let dotted = [24, 16, 8, 0].map { String(address >> UInt32($0) & 0xFF) }.joined(separator: ".")
        precondition(dotted == text, "an address parsed from another form than its own")
    }
    if let value = CookieHeader.value(named: "s", in: text) {
        precondition(value.utf8.count <= 4_096 && !value.utf8.contains(0x3B), "a cookie value beyond its pair")
    }
    precondition(SessionCookie.open(text, keys: keys, now: Date()) == nil || text == sealed, "a forged session cookie opened")
    for credential in ["Authorization", "Cookie"] {
        var headers = HTTPHeaders()
        headers.add(name: credential, value: text)
        headers.add(name: "X-Forwarded-User", value: text)
        headers.add(name: "X-Forwarded-Groups", value: text)
        var request = HTTPRequest(method: .get, target: "/x", headers: headers)
        request.peerAddress = 0x7F00_0001
        guard case .now(let response) = responder.respond(to: request) else { preconditionFailure("answered later") }
        let valid = credential == "Authorization" ? BearerCredential.token(from: text) == "good-token"
            : CookieHeader.value(named: SessionCookie.name, in: text) == sealed
        precondition((response.status == .ok) == valid, "\(response.status) for a \(valid ? "valid" : "invalid") \(credential)")
    }
    return 0
}

/// A fixed key, and the one genuine session cookie (user `alice`, valid for a day from the start).
private let keys = try! SealingKeys(current: Array(repeating: 5, count: 32))
private let sealed = SessionCookie.seal(user: "alice", expires: Date(timeIntervalSinceNow: 86_400), keys: keys)

/// Mode users (user alice; the proxy at 127.0.0.2 for `Secure` cookies only) and one token, `good-token`, over a
/// responder that always answers 200.
private let responder: AccessResponder = {
    var access = AccessConfiguration(mode: .users)
    access.tokens = [APIToken(name: "ci", sha256: APIToken.hash("good-token"))!]
    access.users = [UserAccount(name: "alice", passwordHash: "$2b$04$abcdefghijklmnopqrstuughE8Ev8uGFaUgY2cNEySvxngrb/Jzdm")!]
    access.proxy = TrustedProxy(addresses: [0x7F00_0002])
    return AccessResponder(inner: ClosureResponder { _ in .now(.text("ok")) }, configuration: access, mode: .users,
                           tables: [], pages: [:], keys: keys)
}()
