import Foundation
import Testing
@testable import Upstream

/// Sealed cursors: opaque, tamper-evident, bound to one scope (table); and the hash under them.
@Suite struct CursorSealTests {
    private func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    @Test func sha256KnownAnswers() {
        #expect(hex(SHA256.hash([])) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(hex(SHA256.hash(Array("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        let long = Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
        #expect(hex(SHA256.hash(long)) == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test func hmacKnownAnswer() {  // RFC 4231 test case 2
        let mac = SHA256.hmac(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8))
        #expect(hex(mac) == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    @Test func roundTripAndOpacity() {
        let seal = CursorSeal.random()
        let cursor = "https://api.example.com/items?page=2&api_key=SECRET"
        let sealed = seal.seal(cursor, scope: "repos")
        #expect(seal.open(sealed, scope: "repos") == cursor)
        #expect(!sealed.contains("SECRET") && !sealed.contains("example"))
        let decoded = sealed.split(separator: ".").first.flatMap { Data(base64Encoded: String($0) + "==") }
        #expect(decoded.map { String(decoding: $0, as: UTF8.self).contains("SECRET") } != true)
    }

    @Test func tamperingOrAnotherScopeOrKeyIsRefused() {
        let seal = CursorSeal(key: Array(repeating: 7, count: 32))
        let sealed = seal.seal("cursor-42", scope: "repos")
        #expect(seal.open(sealed, scope: "issues") == nil)
        #expect(CursorSeal(key: Array(repeating: 8, count: 32)).open(sealed, scope: "repos") == nil)
        var bytes = Array(sealed.utf8)
        bytes[0] = bytes[0] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        #expect(seal.open(String(decoding: bytes, as: UTF8.self), scope: "repos") == nil)
        #expect(seal.open("cursor-42", scope: "repos") == nil)
        #expect(seal.open("", scope: "repos") == nil)
        #expect(seal.open("a.b.c", scope: "repos") == nil)
    }

    @Test func retryAfterReadsSecondsAndDates() {
        let now = Date(timeIntervalSince1970: 1_700_000_000)  // Tue, 14 Nov 2023 22:13:20 GMT
        #expect(RetryAfter.parse("120", now: now) == .seconds(120))
        #expect(RetryAfter.parse("Tue, 14 Nov 2023 22:13:30 GMT", now: now) == .seconds(10))
        #expect(RetryAfter.parse("Tue, 14 Nov 2023 22:00:00 GMT", now: now) == .zero)
        #expect(RetryAfter.parse("soon", now: now) == nil)
        #expect(RetryAfter.parse("-5", now: now) == nil)
    }

    @Test func backoffIsFullJitterUnderTheCap() {
        var policy = RetryPolicy()
        policy.baseDelay = .milliseconds(100)
        policy.maxDelay = .milliseconds(350)
        #expect(policy.delay(beforeRetry: 1, retryAfter: nil, unit: 0.5) == .milliseconds(50))
        #expect(policy.delay(beforeRetry: 3, retryAfter: nil, unit: 0.999_999)! <= .milliseconds(350))
        #expect(policy.delay(beforeRetry: 3, retryAfter: nil, unit: 0) == .zero)
        #expect(policy.delay(beforeRetry: 1, retryAfter: .seconds(3), unit: 0.5) == .seconds(3))
        #expect(policy.delay(beforeRetry: 1, retryAfter: .seconds(31), unit: 0.5) == nil)
    }
}
