import Sealing
import Testing

/// Sealed cursors: opaque, tamper-evident, bound to one scope (table and route), cheap to refuse.
@Suite struct CursorSealTests {
    @Test func roundTripAndOpacity() {
        let seal = CursorSeal.random()
        let cursor = "https://api.example.com/items?page=2&api_key=SECRET"
        let sealed = seal.seal(cursor, scope: "repos")
        #expect(seal.open(sealed, scope: "repos") == cursor)
        #expect(!sealed.contains("SECRET") && !sealed.contains("example"))
        let decoded = Base64URL.decode(sealed)
        #expect(decoded != nil && !String(decoding: decoded ?? [], as: UTF8.self).contains("SECRET"))
        #expect(seal.open(seal.seal("", scope: "repos"), scope: "repos") == "")
        #expect(seal.open(seal.seal("ünïcødé ✓", scope: "repos"), scope: "repos") == "ünïcødé ✓")
    }

    @Test("equal cursors seal equally (a loader whose next equals its position ends the list)")
    func sealingIsDeterministic() {
        let seal = CursorSeal(key: Array(repeating: 7, count: 32))
        #expect(seal.seal("cursor-42", scope: "repos") == seal.seal("cursor-42", scope: "repos"))
        #expect(seal.seal("cursor-42", scope: "repos") != seal.seal("cursor-43", scope: "repos"))
        #expect(seal.seal("cursor-42", scope: "repos") != seal.seal("cursor-42", scope: "issues"))
        #expect(CursorSeal(key: Array(repeating: 7, count: 32)).seal("x", scope: "s") == seal.seal("x", scope: "s"))
    }

    @Test("the sealed form is standard AES-256-SIV with an HKDF-SHA-256 key (cross-checked with Python's cryptography)")
    func knownAnswer() {
        // AESSIV(HKDF(SHA256, 64, salt "rowstream", info "rowstream cursor seal v2: AES-256-SIV").derive(7 x 32))
        //   .encrypt(b"\x02cursor-42", [b"repos"]), base64url without padding (cryptography 48.0.0).
        let independent = "br_IDDUcqYXSH3BBdNuhR3Lu4f1ilU0TtSY"
        let seal = CursorSeal(key: Array(repeating: 7, count: 32))
        #expect(seal.seal("cursor-42", scope: "repos") == independent)
        #expect(seal.open(independent, scope: "repos") == "cursor-42")
    }

    @Test func tamperingOrAnotherScopeOrKeyIsRefused() {
        let seal = CursorSeal(key: Array(repeating: 7, count: 32))
        let sealed = seal.seal("cursor-42", scope: "repos")
        #expect(seal.open(sealed, scope: "issues") == nil)
        #expect(seal.open(sealed, scope: "repos\0") == nil)
        #expect(CursorSeal(key: Array(repeating: 8, count: 32)).open(sealed, scope: "repos") == nil)
        // Every single changed character, tag or ciphertext, is refused.
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        for index in sealed.utf8.indices {
            var bytes = Array(sealed.utf8)
            let position = sealed.utf8.distance(from: sealed.utf8.startIndex, to: index)
            bytes[position] = alphabet.first { $0 != bytes[position] && ($0 ^ bytes[position]) & 0x3 != 0 }!
            #expect(seal.open(String(decoding: bytes, as: UTF8.self), scope: "repos") == nil)
        }
        #expect(seal.open(sealed + "A", scope: "repos") == nil)
        #expect(seal.open(String(sealed.dropLast()), scope: "repos") == nil)
        #expect(seal.open("cursor-42", scope: "repos") == nil)
        #expect(seal.open("", scope: "repos") == nil)
        #expect(seal.open("a.b.c", scope: "repos") == nil)
    }

    @Test("sealed text longer than the cap is refused unread, even when genuine")
    func oversizedSealsAreRefused() {
        let seal = CursorSeal.random()
        let long = String(repeating: "c", count: 2_000)
        let sealed = seal.seal(long, scope: "repos")
        #expect(sealed.utf8.count > CursorSeal.maxProxyCursorLength && sealed.utf8.count < CursorSeal.maxSealedLength)
        #expect(seal.open(sealed, scope: "repos") == long)
        #expect(seal.open(sealed, scope: "repos", maxLength: CursorSeal.maxProxyCursorLength) == nil)
        let huge = seal.seal(String(repeating: "c", count: 3_200), scope: "repos")
        #expect(huge.utf8.count > CursorSeal.maxSealedLength)
        #expect(seal.open(huge, scope: "repos") == nil)
    }
}
