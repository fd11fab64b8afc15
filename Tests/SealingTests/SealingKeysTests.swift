import Foundation
import Sealing
import Testing

/// Key rotation and the key file (docs/SCALING.md, "Keys: tokens valid on every instance").
@Suite struct SealingKeysTests {
    static let old: [UInt8] = Array(repeating: 1, count: 32)
    static let new: [UInt8] = Array(repeating: 2, count: 32)

    @Test("a token sealed with the old key opens while it is listed below the new one; the new key seals")
    func rotation() throws {
        let before = try SealingKeys(current: Self.old)
        let token = before.seal("page=7", scope: "resume:t")
        let rotated = try SealingKeys(current: Self.new, previous: [Self.old])
        #expect(rotated.count == 2)
        #expect(rotated.open(token, scope: "resume:t") == "page=7", "the previous key still opens")
        let fresh = rotated.seal("page=8", scope: "resume:t")
        #expect(before.open(fresh, scope: "resume:t") == nil, "sealed with the new key, not the old")
        #expect(try SealingKeys(current: Self.new).open(fresh, scope: "resume:t") == "page=8")
        #expect(rotated.open(token, scope: "proxy:t") == nil, "scopes still apply to previous keys")
    }

    @Test("an identity is a keyed hash: equal for equal material under the current key, another under another key, never the material")
    func identity() throws {
        let material = Array("credential-of-alice".utf8)
        let keys = try SealingKeys(current: Self.old)
        let name = keys.identity(of: material)
        #expect(name == (try SealingKeys(current: Self.old, previous: [Self.new])).identity(of: material))
        #expect(name != keys.identity(of: Array("credential-of-bob".utf8)))
        #expect(name != (try SealingKeys(current: Self.new)).identity(of: material), "keyed: another key, another name")
        #expect(name != SHA256Digest.hex(of: "credential-of-alice") && !name.contains("alice"))
        // Not the HMAC under the raw key, nor the AES key: a key derived for this use only.
        #expect(Base64URL.decode(name) != KeyedHash.hmacSHA256(key: Self.old, material))
        #expect(Base64URL.decode(name)?.count == 32)
    }

    @Test("a token sealed with a retired key is refused, never misread")
    func retiredKeyRefused() throws {
        let token = try SealingKeys(current: Self.old).seal("page=7", scope: "resume:t")
        #expect(try SealingKeys(current: Self.new).open(token, scope: "resume:t") == nil)
        #expect(SealingKeys.random().open(token, scope: "resume:t") == nil)
        let other: [UInt8] = Array(repeating: 3, count: 32)
        #expect(try SealingKeys(current: Self.new, previous: [other]).open(token, scope: "resume:t") == nil)
    }

    @Test("random keys are ephemeral and differ; configured ones are not")
    func ephemeral() throws {
        let a = SealingKeys.random()
        #expect(a.isEphemeral)
        #expect(SealingKeys.random().open(a.seal("x", scope: "s"), scope: "s") == nil)
        #expect(try !SealingKeys(current: Self.new).isEphemeral)
    }

    @Test("a key file: comments, blank lines, spaces and CRLF skipped; padded base64 or base64url; the first seals")
    func keyFile() throws {
        let newLine = Data(Self.new).base64EncodedString()
        let oldLine = Base64URL.encode(Self.old)
        let text = "# rotated today\r\n\r\n  \(newLine)  \r\n# the old one, until tomorrow\n\t\(oldLine)\n"
        let keys = try SealingKeyFile.parse(text, file: "secret")
        #expect(keys.count == 2)
        #expect(!keys.isEphemeral)
        let sealed = keys.seal("x", scope: "s")
        #expect(try SealingKeys(current: Self.new).open(sealed, scope: "s") == "x")
        #expect(keys.open(try SealingKeys(current: Self.old).seal("y", scope: "s"), scope: "s") == "y")
    }

    @Test("bad key files are clear errors naming the file and line, never the key")
    func badFiles() throws {
        let short = Data(Array(repeating: UInt8(9), count: 16)).base64EncodedString()
        let good = Data(Self.new).base64EncodedString()
        let cases: [(text: String, line: Int?, words: String)] = [
            ("# only a comment\n\n", nil, "no sealing key"),
            ("", nil, "no sealing key"),
            ("\(good)\n\(short)\n", 2, "the key has 16 bytes; at least 32"),
            ("# c\nnot*base64!\(good)\n", 2, "not a base64 key"),
            ("\(good) \(good)\n", 1, "not a base64 key"),
            ("\(good)=\n", 1, "not a base64 key"),
        ]
        for (text, line, words) in cases {
            let error = try #require(throws: SealingKeysError.self) { try SealingKeyFile.parse(text, file: "/etc/rs/secret") }
            #expect(error.line == line, "\(text)")
            #expect(error.file == "/etc/rs/secret")
            #expect(error.description.hasPrefix("/etc/rs/secret" + (line.map { " line \($0)" } ?? "") + ": "))
            #expect(error.description.contains(words), "\(error)")
            #expect(!error.description.contains(short) && !error.description.contains(good.prefix(12)), "no key text")
        }
        #expect(throws: SealingKeysError.self) { try SealingKeys(current: Array(repeating: 1, count: 31)) }
        #expect(throws: SealingKeysError.self) { try SealingKeys(current: Self.new, previous: [[1, 2, 3]]) }
    }

    @Test("a missing file is an error naming it; a key file others may read is warned about; a private one is not")
    func files() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rowstream-keys-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = folder.appendingPathComponent("missing").path
        let error = try #require(throws: SealingKeysError.self) { try SealingKeyFile.load(path: missing) }
        #expect(error.description == "\(missing): cannot read the sealing key file")

        let path = folder.appendingPathComponent("secret").path
        try Data((SealingKeyFile.newKey() + "\n").utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        #expect(try SealingKeyFile.load(path: path).count == 1)
        let warning = try #require(SealingKeyFile.permissionWarning(path: path))
        #expect(warning.contains(path) && warning.contains("644") && warning.contains("chmod 600"))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        #expect(SealingKeyFile.permissionWarning(path: path) == nil)
    }

    @Test("keygen: a fresh 32-byte key in standard base64, a valid key file line")
    func keygen() throws {
        let a = SealingKeyFile.newKey()
        #expect(Data(base64Encoded: a)?.count == 32)
        #expect(a != SealingKeyFile.newKey())
        #expect(try SealingKeyFile.parse(a + "\n", file: "f").count == 1)
    }

    @Test("keys never show in descriptions, dumps or mirrors")
    func noKeyInDescriptions() throws {
        let keys = try SealingKeys(current: Self.new, previous: [Self.old])
        var dumped = ""
        dump(keys, to: &dumped)
        for text in ["\(keys)", String(reflecting: keys), dumped, "\(CursorSeal(key: Self.new))"] {
            #expect(!text.contains("2, 2, 2") && !text.contains("key:"), "\(text)")
        }
        #expect("\(keys)" == "SealingKeys(2 keys)")
        #expect("\(SealingKeys.random())" == "SealingKeys(1 key, random)")
        #expect(Mirror(reflecting: keys).children.isEmpty)
    }
}
