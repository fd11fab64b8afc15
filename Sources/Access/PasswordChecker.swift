/// Checks a sign-in's password against a user's stored hash: ``crypt`` (libcrypt's yescrypt, ``PasswordHash``) in
/// the server; tests hand ``AccessResponder`` one that counts the checks or holds them.
///
/// Thread-safe: `verify` is `@Sendable`; it runs in a sign-in's `.later` task, off the event loop.
package struct PasswordChecker: Sendable {
    package let verify: @Sendable (_ password: String, _ hash: String) async -> Bool

    package init(_ verify: @escaping @Sendable (_ password: String, _ hash: String) async -> Bool) {
        self.verify = verify
    }

    /// ``PasswordHash/verify(_:hash:)``.
    package static let crypt = PasswordChecker { password, hash in PasswordHash.verify(password, hash: hash) }
}
