/// How a server knows who its viewer is (docs/SECURITY.md, "Modes").
///
/// Thread-safe: a value.
public enum AccessMode: String, Sendable, Equatable, CaseIterable {
    /// `none` in a config and on the command line: everyone who reaches the port sees everything; the default on a
    /// loopback address, chosen explicitly anywhere else. (Not spelt `.none` in Swift: that would read as an optional's
    /// nil, which means "not chosen".)
    case open = "none"
    /// Every request carries `Authorization: Bearer TOKEN`, one of the configured ``APIToken``s: scripts and the
    /// JSON proxy.
    case tokens
    /// A trusted reverse proxy (oauth2-proxy and the like) names the viewer in `X-Forwarded-User` and
    /// `X-Forwarded-Groups`, believed only from its configured addresses (``TrustedProxy``). API tokens work too.
    case proxy
    /// Users sign in at `/login` with a password (crypt(3) hashes in the config: ``UserAccount``) and get a sealed
    /// session cookie (``SessionCookie``). API tokens work too.
    case users
}
