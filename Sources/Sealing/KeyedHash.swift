import CCrypto

/// HMAC-SHA-256 (RFC 2104) from OpenSSL's libcrypto: names shared-cache keys after values that may hold secrets (an
/// upstream cursor, a table's request with its API key) without revealing them, and without anyone who lacks the key
/// being able to choose inputs that collide.
///
/// Thread-safe: a pure function.
public enum KeyedHash {
    /// The 32-byte HMAC-SHA-256 of `message` under `key`.
    public static func hmacSHA256(key: [UInt8], _ message: [UInt8]) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: 32)
        var length = 0
        let done = key.withUnsafeBufferPointer { key in
            message.withUnsafeBufferPointer { message in
                output.withUnsafeMutableBufferPointer { output in
                    EVP_Q_mac(nil, "HMAC", nil, "SHA256", nil, key.baseAddress, key.count, message.baseAddress,
                              message.count, output.baseAddress, output.count, &length)
                }
            }
        }
        guard done != nil, length == 32 else { preconditionFailure("libcrypto failed to compute HMAC-SHA-256") }
        return output
    }
}
