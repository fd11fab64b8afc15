import Access
import Sealing
import Testing

@Suite("Access: Authorization parsing, token digests, constant-time comparison, addresses")
struct CredentialParsingTests {
    @Test("Bearer tokens are read in any scheme case; anything else is no credential")
    func bearer() {
        #expect(BearerCredential.token(from: "Bearer abc.DEF-_~+/=") == "abc.DEF-_~+/=")
        #expect(BearerCredential.token(from: "bearer  xyz") == "xyz")
        #expect(BearerCredential.token(from: "BEARER xyz==") == "xyz==")
        for header in ["", "Bearer", "Bearer ", "Basic abc", "Bearerabc", "Bearer a b", "Bearer =abc", "Bearer a=b",
                       "Bearer \u{e9}", "Bearer a\tb", "Token abc", "Bearer " + String(repeating: "a", count: 513)] {
            #expect(BearerCredential.token(from: header) == nil, "\(header.prefix(20))")
        }
        #expect(BearerCredential.token(from: "Bearer " + String(repeating: "a", count: 512))?.count == 512)
    }

    @Test("SHA-256 is libcrypto's (FIPS 180-2 vectors); hex round-trips; APIToken refuses a non-digest")
    func digest() {
        #expect(SHA256Digest.hex(of: "abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256Digest.hex(of: "") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        let hex = SHA256Digest.hex(of: "token")
        #expect(SHA256Digest.bytes(hex: hex) == SHA256Digest.hash("token".utf8))
        #expect(SHA256Digest.bytes(hex: hex.uppercased()) == SHA256Digest.hash("token".utf8))
        #expect(SHA256Digest.bytes(hex: String(hex.dropLast())) == nil)
        #expect(SHA256Digest.bytes(hex: String(hex.dropLast()) + "g") == nil)
        #expect(APIToken(name: "a", sha256: "token") == nil, "the token itself is not accepted as its digest")
        #expect(APIToken.hash("token") == hex)
        let fresh = APIToken.random()
        #expect(fresh.count == 43 && BearerCredential.token(from: "Bearer \(fresh)") == fresh)
    }

    @Test("the constant-time comparison is equality of bytes (CRYPTO_memcmp): every position and length matters")
    func constantTime() {
        let a = SHA256Digest.hash("a".utf8)
        #expect(ConstantTime.equal(a, a))
        #expect(ConstantTime.equal([], []))
        for index in a.indices {
            var b = a
            b[index] ^= 0x01
            #expect(!ConstantTime.equal(a, b), "a difference at byte \(index)")
        }
        #expect(!ConstantTime.equal(a, Array(a.dropLast())))
        #expect(!ConstantTime.equal(a, a + [0]))
    }

    @Test("IPv4 dotted quads parse strictly; loopback hosts are 127/8, localhost and ::1")
    func addresses() {
        #expect(IPv4Address.parse("127.0.0.1") == 0x7F00_0001)
        #expect(IPv4Address.parse("10.1.2.255") == 0x0A01_02FF)
        for text in ["", "1.2.3", "1.2.3.4.5", "256.0.0.1", "01.2.3.4", "1.2.3.-4", "a.b.c.d", "1..3.4", " 1.2.3.4"] {
            #expect(IPv4Address.parse(text) == nil, "\(text)")
        }
        #expect(IPv4Address.isLoopback(host: "127.0.0.1") && IPv4Address.isLoopback(host: "127.9.9.9"))
        #expect(IPv4Address.isLoopback(host: "localhost") && IPv4Address.isLoopback(host: "::1"))
        #expect(!IPv4Address.isLoopback(host: "0.0.0.0") && !IPv4Address.isLoopback(host: "192.168.1.2"))
        #expect(!IPv4Address.isLoopback(host: "::") && !IPv4Address.isLoopback(host: "example.com"))
    }
}
