/// Why an access configuration cannot serve (docs/SECURITY.md): the server refuses to start with it.
///
/// A plain value: thread-safe.
public struct AccessError: Error, Sendable, Equatable, CustomStringConvertible {
    private enum Code: Sendable, Equatable {
        case notChosen(host: String)
        case noTokens
        case noProxy
        case noUsers
        case rulesWithoutViewers
        case unknownTable(String)
        case unknownPage(String)
    }

    private let code: Code

    private init(_ code: Code) { self.code = code }

    /// Listening on a non-loopback `host` without an access mode.
    static func notChosen(host: String) -> AccessError { AccessError(.notChosen(host: host)) }
    /// Mode `tokens` without a token.
    static let noTokens = AccessError(.noTokens)
    /// Mode `proxy` without a proxy address.
    static let noProxy = AccessError(.noProxy)
    /// Mode `users` without a user.
    static let noUsers = AccessError(.noUsers)
    /// Allow lists in mode `none`, which knows no viewers.
    static let rulesWithoutViewers = AccessError(.rulesWithoutViewers)
    /// An allow list for a table the server does not serve.
    static func unknownTable(_ name: String) -> AccessError { AccessError(.unknownTable(name)) }
    /// An allow list for a page the server does not serve.
    static func unknownPage(_ name: String) -> AccessError { AccessError(.unknownPage(name)) }

    public var description: String {
        switch code {
        case .notChosen(let host):
            "listening on \(host), which other machines reach, needs an access mode: set the config's "
                + "\"access\" (\"none\" to let everyone who reaches the port see every table, \"tokens\", \"users\" or \"proxy\") "
                + "or pass --access MODE (docs/SECURITY.md)"
        case .noTokens: "access mode tokens needs at least one token (access.tokens; `rowstream hash-token`)"
        case .noProxy: "access mode proxy needs the proxy's addresses (access.proxy.addresses)"
        case .noUsers: "access mode users needs at least one user (access.users; `mkpasswd -m yescrypt` for the hash)"
        case .rulesWithoutViewers:
            "allow lists need an access mode that knows viewers (tokens, users or proxy), not none"
        case .unknownTable(let name): "an allow list names table \"\(name)\", which the server does not serve"
        case .unknownPage(let name): "an allow list names page \"\(name)\", which the server does not serve"
        }
    }
}
