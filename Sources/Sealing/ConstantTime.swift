import CCrypto

/// Comparison of secrets (token digests, signatures) whose time does not depend on where they differ: libcrypto's
/// `CRYPTO_memcmp`. Never compare a secret with `==`.
///
/// Thread-safe: stateless.
public enum ConstantTime {
    /// True when `a` and `b` hold the same bytes. Lengths are not secret (digests have a fixed one): unequal
    /// lengths answer false at once; equal lengths are compared in time independent of the contents.
    public static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        guard !a.isEmpty else { return true }
        return a.withUnsafeBytes { left in
            b.withUnsafeBytes { right in CRYPTO_memcmp(left.baseAddress, right.baseAddress, left.count) == 0 }
        }
    }
}
