/// A user of access mode `users`: a name, a crypt(3) password hash (``PasswordHash``: `mkpasswd -m yescrypt` or
/// `rowstream hash-password`), and groups.
///
/// Thread-safe: a value.
public struct UserAccount: Sendable, Equatable {
    public let name: String
    /// The crypt(3) hash (`$y$...` or `$2b$...`); never the password.
    public let passwordHash: String
    public var groups: Set<String>

    /// A user whose `passwordHash` is a supported crypt(3) hash, and whose name is 1-64 printable ASCII characters
    /// without `|` (the session cookie's separator); nil otherwise.
    public init?(name: String, passwordHash: String, groups: Set<String> = []) {
        guard (1...64).contains(name.utf8.count), name.utf8.allSatisfy({ (0x21...0x7E).contains($0) && $0 != 0x7C }),
              PasswordHash.isSupported(passwordHash)
        else { return nil }
        self.name = name
        self.passwordHash = passwordHash
        self.groups = groups
    }
}
