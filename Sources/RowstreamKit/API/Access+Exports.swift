import Access

/// Who may reach a server and see what (docs/SECURITY.md): ``ServerConfiguration/access``.
public typealias AccessConfiguration = Access.AccessConfiguration
/// How a server knows its viewer: `none`, `tokens`, `proxy`, `users`.
public typealias AccessMode = Access.AccessMode
/// One API token, stored as its SHA-256.
public typealias APIToken = Access.APIToken
/// Who may see a table or a page.
public typealias AllowList = Access.AllowList
/// A reverse proxy whose identity headers are believed.
public typealias TrustedProxy = Access.TrustedProxy
/// Who reads `/metrics`.
public typealias MetricsAccess = Access.MetricsAccess
/// Who sent the request being answered.
public typealias Viewer = Access.Viewer
/// Why an access configuration cannot serve.
public typealias AccessError = Access.AccessError
/// Dotted-quad IPv4 addresses (proxy and metrics address lists).
public typealias IPv4Address = Access.IPv4Address
/// A user of access mode `users`: a name, a crypt(3) password hash, groups.
public typealias UserAccount = Access.UserAccount
/// crypt(3) password hashes (yescrypt, bcrypt) through the system's libcrypt.
public typealias PasswordHash = Access.PasswordHash
/// The rate limit of failed sign-ins.
public typealias LoginThrottle = Access.LoginThrottle
/// The signed-in user's sealed cookie.
public typealias SessionCookie = Access.SessionCookie
/// The value of one cookie in a request's `Cookie` header (a table forwarding `${viewer.cookie.NAME}`).
public typealias CookieHeader = Access.CookieHeader
