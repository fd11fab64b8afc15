import Access

/// Who may reach a server and see what (docs/SECURITY.md): ``ServerConfiguration/access``.
public typealias AccessConfiguration = Access.AccessConfiguration
/// How a server knows its viewer: `none`, `tokens`, `proxy`.
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
