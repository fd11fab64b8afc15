import Foundation
import Testing
import Upstream

/// Every spelling of a secret the server sends (or an upstream re-encodes) is redacted.
@Suite struct SecretRedactorTests {
    static let secret = "s3cr3t+T0ken/with=chars&x y"
    let redactor = SecretRedactor(secrets: [secret, "abc"])

    @Test(arguments: [
        "s3cr3t+T0ken/with=chars&x y",  // as is (a header value)
        "s3cr3t%2BT0ken%2Fwith%3Dchars%26x%20y",  // the server's query encoding
        "s3cr3t%2bT0ken%2fwith%3dchars%26x%20y",  // lower-case hex
        "s3cr3t%2BT0ken%2Fwith%3Dchars%26x+y",  // a form
        "s3cr3t+T0ken%2Fwith=chars%26x y",  // a mix
        #"s3cr3t+T0ken\/with=chars&x y"#,  // JSON-escaped
        #"s3cr3t\u002BT0ken\u002fwith=chars&x y"#,
        "czNjcjN0K1Qwa2VuL3dpdGg9Y2hhcnMmeCB5",  // base64
        "QmVhcmVyIHMzY3IzdCtUMGtlbi93aXRoPWNoYXJzJnggeQ==",  // base64 of "Bearer " + secret (another alignment)
        "QmVhcmVyIHMzY3IzdCtUMGtlbi93aXRoPWNoYXJzJnggeQ".replacingOccurrences(of: "+", with: "-"),
    ])
    func everySpellingIsRedacted(spelling: String) {
        let redacted = redactor.redact("error: key=\(spelling)&page=2")
        #expect(redacted.contains("[redacted]"), "\(redacted)")
        #expect(!redacted.contains("T0ken") && !redacted.contains("VDBrZW4") && !redacted.contains("UMGtlbi"), "\(redacted)")
        #expect(redacted.hasPrefix("error: key=") && redacted.hasSuffix("&page=2") || spelling.hasPrefix("QmVh"))
    }

    /// The first review's example, echoed in other letter cases, alone and inside each encoding.
    @Test(arguments: [
        "S3CR3T+T0KEN/WITH=CHARS&X Y",  // upper case
        "s3cr3t+t0ken/with=chars&x y",  // lower case
        "S3CR3T%2BT0KEN%2FWITH%3DCHARS%26X%20Y",  // upper case, percent-encoded
        "s3cr3t%2bt0ken%2fwith%3dchars%26x+y",  // lower case, form-encoded
        "S3CR3T%2bT0KEN/WITH%3dCHARS&X+Y",  // a mix
        #"S3CR3T\u002bT0KEN\/WITH=CHARS&X Y"#,  // JSON-escaped
        "CZNJCJN0K1QWA2VUL3DPDGG9Y2HHCNMMECB5",  // its base64, upper-cased by the upstream
    ])
    func everyCaseIsRedacted(spelling: String) {
        let redacted = redactor.redact("error: key=\(spelling)&page=2")
        #expect(redacted == "error: key=[redacted]&page=2", "\(redacted)")
    }

    @Test("a secret cut off at the end of a text is redacted from its 8th byte on")
    func cutSecrets() {
        #expect(redactor.redact("echo: s3cr3t+T0") == "echo: [redacted]")
        #expect(redactor.redact("echo: s3cr3t%2BT0ken%2") == "echo: [redacted]")
        #expect(redactor.redact("echo: s3cr3t+") == "echo: s3cr3t+", "7 bytes are too few to tell")
    }

    @Test("short values and ordinary text are left alone")
    func noFalsePositives() {
        #expect(redactor.redact("abc def") == "abc def", "values under 4 bytes are no secrets")
        #expect(redactor.redact("the upstream answered HTTP 502") == "the upstream answered HTTP 502")
        #expect(SecretRedactor.none.redact("s3cr3t") == "s3cr3t")
        #expect(SecretRedactor(secrets: ["100%"]).redact("at 100% and 100%25") == "at [redacted] and [redacted]")
    }
}
