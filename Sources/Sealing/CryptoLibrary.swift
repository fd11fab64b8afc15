import CCrypto

/// libcrypto's process-wide settings, for an executable to apply at start.
public enum CryptoLibrary {
    /// Keeps libcrypto's global state until the process is gone. By default OpenSSL frees it in an `atexit`
    /// handler, and a thread still hashing or sealing when `exit` runs (a viewer's load that a drain cancelled, still
    /// on the cooperative pool) then crashes on a freed lock: a rolling restart's instance under load ended in
    /// SIGSEGV in `pthread_rwlock_rdlock` under `EVP_Q_mac` instead of exiting 0 (docs/HARDENING.md, "Sanitizers").
    /// Call it first, before any other libcrypto call: the handler is registered by the first one.
    public static func keepUntilExit() {
        _ = OPENSSL_init_crypto(UInt64(OPENSSL_INIT_NO_ATEXIT), nil)
    }
}
