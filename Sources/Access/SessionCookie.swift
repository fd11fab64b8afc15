import Foundation
import Sealing

/// The signed-in user's cookie, `rowstream_session` (docs/SECURITY.md, "Users"): `user|expiry` sealed with the
/// operator's keys (``SealingKeys``, AES-256-SIV, scope `session`), so a client cannot read, forge, alter or extend
/// it, and key rotation is the tokens' own: a cookie sealed with a previous key still opens during its grace period.
/// The groups are not in it: they are read from the config at each request.
///
/// Thread-safe: stateless.
public enum SessionCookie {
    /// The cookie's name.
    public static let name = "rowstream_session"
    static let scope = "session"
    /// Longest cookie value read.
    static let maxLength = 1_024

    /// The sealed value for `user`, valid until `expires`.
    public static func seal(user: String, expires: Date, keys: SealingKeys) -> String {
        keys.seal("v1|\(user)|\(Int64(expires.timeIntervalSince1970))", scope: scope)
    }

    /// The user `value` names if one of `keys` sealed it and it has not expired at `now`; nil otherwise.
    public static func open(_ value: String, keys: SealingKeys, now: Date) -> String? {
        guard let plain = keys.open(value, scope: scope, maxLength: maxLength) else { return nil }
        let parts = plain.split(separator: "|", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "v1", let expiry = Int64(parts[2]),
              Double(expiry) > now.timeIntervalSince1970
        else { return nil }
        return String(parts[1])
    }

    /// The `Set-Cookie` value that sets `value` for `lifetime` seconds: HttpOnly, SameSite=Lax, Path=/, Secure when
    /// `secure`.
    static func setCookie(_ value: String, lifetime: Int, secure: Bool) -> String {
        "\(name)=\(value); Path=/; Max-Age=\(lifetime); HttpOnly; SameSite=Lax" + (secure ? "; Secure" : "")
    }

    /// The `Set-Cookie` value that removes the cookie (sign-out).
    static func clearCookie(secure: Bool) -> String {
        "\(name)=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax" + (secure ? "; Secure" : "")
    }
}
