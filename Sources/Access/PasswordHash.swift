import CCrypt
import Sealing

/// crypt(3) password hashes through the system's libcrypt (libxcrypt): yescrypt (`$y$`, what `mkpasswd -m yescrypt`
/// makes) and bcrypt (`$2b$`). No hashing of our own: libcrypt hashes, we compare its output with the stored hash in
/// constant time. A check costs what the hash's cost parameter says (yescrypt's default: tens of milliseconds):
/// call it off the event loops.
///
/// Thread-safe: stateless; each call has scratch space of its own (`crypt_rn`).
public enum PasswordHash {
    /// The prefixes of the accepted methods.
    public static let methods = ["$y$", "$2b$"]

    /// Whether `hash` is a crypt(3) hash of an accepted method (a config's check; says nothing of its password).
    public static func isSupported(_ hash: String) -> Bool {
        methods.contains(where: hash.hasPrefix) && hash.utf8.count < Int(CRYPT_OUTPUT_SIZE)
            && !hash.utf8.contains(0)
    }

    /// Whether `password` hashes to `hash`. False for an unsupported hash, a password with a NUL or over 1 KiB.
    public static func verify(_ password: String, hash: String) -> Bool {
        guard isSupported(hash), !password.utf8.contains(0), password.utf8.count <= 1_024,
              let computed = crypt(password, setting: hash)
        else { return false }
        return ConstantTime.equal(Array(computed.utf8), Array(hash.utf8))
    }

    /// A new yescrypt hash of `password` with a fresh random salt (libcrypt's default cost); nil if libcrypt fails.
    public static func make(_ password: String) -> String? {
        var setting = [CChar](repeating: 0, count: Int(CRYPT_GENSALT_OUTPUT_SIZE))
        guard crypt_gensalt_rn("$y$", 0, nil, 0, &setting, Int32(setting.count)) != nil else { return nil }
        let prefix = setting.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return crypt(password, setting: String(decoding: prefix, as: UTF8.self))
    }

    private static func crypt(_ password: String, setting: String) -> String? {
        var scratch = [UInt8](repeating: 0, count: Int(ccrypt_data_size()))
        let size = Int32(scratch.count)
        return scratch.withUnsafeMutableBytes { raw in
            guard let result = crypt_rn(password, setting, raw.baseAddress, size) else { return nil }
            return String(cString: result)
        }
    }
}
