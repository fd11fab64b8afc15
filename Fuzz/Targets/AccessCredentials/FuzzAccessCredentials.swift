import Access
import HTTPServer

/// libFuzzer target: what the access layer reads from a request (see Scripts/fuzz, docs/SECURITY.md). For any
/// input: the `Authorization` parser returns nil or a token68 of at most 512 characters found in the input, which
/// parses back to itself; an IPv4 address parses only from its own dotted form; and the access responder, given
/// the input as the `Authorization` header and as a proxy's identity headers from a peer that is not the proxy,
/// answers 401 unless the input is exactly a valid token's header, and never traps.
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
    var headers = HTTPHeaders()
    headers.add(name: "Authorization", value: text)
    headers.add(name: "X-Forwarded-User", value: text)
    headers.add(name: "X-Forwarded-Groups", value: text)
    var request = HTTPRequest(method: .get, target: "/x", headers: headers)
    request.peerAddress = 0x7F00_0001
    guard case .now(let response) = responder.respond(to: request) else { preconditionFailure("answered later") }
    let valid = BearerCredential.token(from: text) == "good-token"
    precondition((response.status == .ok) == valid, "\(response.status) for a \(valid ? "valid" : "invalid") credential")
    return 0
}

/// Mode proxy with the proxy at 127.0.0.2 and one token, `good-token`, over a responder that always answers 200.
private let responder: AccessResponder = {
    var access = AccessConfiguration(mode: .proxy)
    access.tokens = [APIToken(name: "ci", sha256: APIToken.hash("good-token"))!]
    access.proxy = TrustedProxy(addresses: [0x7F00_0002])
    return AccessResponder(inner: ClosureResponder { _ in .now(.text("ok")) }, configuration: access, mode: .proxy,
                           tables: [], pages: [:])
}()
