import Sealing
import Testing

/// The one base64url of every token and sealed cursor: unpadded, and read only in its canonical spelling.
@Suite struct Base64URLTests {
    @Test("every length round-trips, unpadded and in the URL alphabet")
    func roundTrip() {
        for length in 0...66 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 251) }
            let text = Base64URL.encode(bytes)
            #expect(!text.contains("=") && !text.contains("+") && !text.contains("/"))
            #expect(Base64URL.decode(text) == bytes)
            #expect(Base64URL.decode(text[...]) == bytes)
        }
        #expect(Base64URL.encode([0xFB, 0xFF]) == "-_8")
    }

    @Test("padding, the standard alphabet, impossible lengths and set unused bits are refused")
    func onlyTheCanonicalSpellingIsRead() {
        #expect(Base64URL.decode("QQ") == [0x41])
        #expect(Base64URL.decode("QQ==") == nil)   // padded
        #expect(Base64URL.decode("QR") == nil)     // a second spelling of "QQ" (unused bits set)
        #expect(Base64URL.decode("-_8") == [0xFB, 0xFF])
        #expect(Base64URL.decode("+/8") == nil)    // the standard alphabet
        #expect(Base64URL.decode("QUJDR") == nil)  // no encoding has 5 characters
        #expect(Base64URL.decode("QU JD") == nil)
        #expect(Base64URL.decode("") == [])
    }
}
