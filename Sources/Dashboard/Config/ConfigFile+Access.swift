import Foundation
import JSON
import RowstreamKit

extension ConfigFile {
    /// The top-level `access` (docs/SECURITY.md, docs/CONFIG.md "Access"): a mode name, or
    /// `{"mode", "tokens", "users", "sessionHours", "secureCookies", "proxy", "tables", "pages", "metrics"}`. Tables and pages named must be in this file.
    static func access(_ value: JSONValue, file: String, tables: [TableConfig], pages: [DashboardPage])
        throws(ConfigError) -> AccessConfiguration
    {
        if case .string(let name) = value {
            guard let mode = AccessMode(rawValue: name) else { throw modeError(file: file, keyPath: "access") }
            return AccessConfiguration(mode: mode)
        }
        var reader = try ConfigReader(value, file: file, path: "access")
        try reader.rejectUnknown(["mode", "tokens", "users", "sessionHours", "secureCookies", "proxy", "tables", "pages",
                                  "metrics"])
        var access = AccessConfiguration()
        if let name = try reader.string("mode") {
            guard let mode = AccessMode(rawValue: name) else { throw modeError(file: file, keyPath: "access.mode") }
            access.mode = mode
        }
        access.tokens = try reader.array("tokens").map { (list) throws(ConfigError) in
            try Self.tokens(list, file: file, path: reader.keyPath("tokens"))
        } ?? []
        access.users = try reader.array("users").map { (list) throws(ConfigError) in
            try Self.users(list, file: file, path: reader.keyPath("users"))
        } ?? []
        if let hours = try reader.int("sessionHours", in: 1...(24 * 366)) { access.sessionLifetime = .seconds(hours * 3_600) }
        if let secure = try reader.bool("secureCookies") { access.secureCookies = secure }
        if var proxy = try reader.object("proxy") {
            var trusted = TrustedProxy(addresses: try addresses(&proxy, "addresses") ?? [])
            if let header = try proxy.string("userHeader") { trusted.userHeader = try headerName(header, proxy, "userHeader") }
            if let header = try proxy.string("groupsHeader") {
                trusted.groupsHeader = try headerName(header, proxy, "groupsHeader")
            }
            if let logout = try proxy.string("logout") {
                guard TrustedProxy.isLogoutURL(logout) else {
                    throw proxy.error("logout", "a path on this server (/oauth2/sign_out) or an http(s) URL: the pages' Sign out link")
                }
                trusted.logoutURL = logout
            }
            try proxy.finish()
            access.proxy = trusted
        }
        if var rules = try reader.object("tables") {
            for name in rules.keys {
                guard tables.contains(where: { $0.spec.name == name }) else {
                    throw rules.error(name, "the name of a table in this file")
                }
                access.tables[name] = try allowList(&rules, name)
            }
        }
        if var rules = try reader.object("pages") {
            for name in rules.keys {
                guard pages.contains(where: { $0.name == name }) else { throw rules.error(name, "the name of a page in this file") }
                access.pages[name] = try allowList(&rules, name)
            }
        }
        if var metrics = try reader.object("metrics") {
            let tokens = try metrics.array("tokens").map { (list) throws(ConfigError) in
                try Self.tokens(list, file: file, path: metrics.keyPath("tokens"))
            } ?? []
            access.metrics = MetricsAccess(tokens: tokens, addresses: try addresses(&metrics, "addresses") ?? [])
            try metrics.finish()
        }
        try reader.finish()
        if access.mode != nil {   // else `--access` may still choose it: checked at start
            do throws(AccessError) {
                _ = try access.validated(host: nil, tables: Set(tables.map(\.spec.name)), pages: Set(pages.map(\.name)))
            } catch {
                throw ConfigError(file: file, keyPath: "access", expected: "a consistent access configuration: \(error)")
            }
        }
        return access
    }

    private static func modeError(file: String, keyPath: String) -> ConfigError {
        ConfigError(file: file, keyPath: keyPath,
                    expected: "an access mode: " + AccessMode.allCases.map(\.rawValue).joined(separator: ", "))
    }

    /// `[{"name", "sha256", "groups", "expires"}]`: names unique, `sha256` from `rowstream hash-token`, `expires` an
    /// ISO 8601 instant (`2027-01-31T00:00:00Z`).
    private static func tokens(_ list: [JSONValue], file: String, path: String) throws(ConfigError) -> [APIToken] {
        var tokens: [APIToken] = []
        for (i, element) in list.enumerated() {
            var reader = try ConfigReader(element, file: file, path: path + "[\(i)]")
            let name = try reader.requiredString("name")
            guard !tokens.contains(where: { $0.name == name }) else { throw reader.error("name", "a name no other token uses") }
            let digest = try reader.requiredString("sha256", "64 hex digits: the token's SHA-256 (`rowstream hash-token`)")
            guard var token = APIToken(name: name, sha256: digest) else {
                throw reader.error("sha256", "64 hex digits: the token's SHA-256 (`rowstream hash-token`), never the token")
            }
            token.groups = try names(&reader, "groups")
            if let text = try reader.string("expires") {
                guard let date = ISO8601DateFormatter().date(from: text) else {
                    throw reader.error("expires", "an ISO 8601 instant such as 2027-01-31T00:00:00Z")
                }
                token.expires = date
            }
            try reader.finish()
            tokens.append(token)
        }
        return tokens
    }

    /// `[{"name", "password", "groups"}]`: names unique, `password` a crypt(3) hash (`mkpasswd -m yescrypt`).
    private static func users(_ list: [JSONValue], file: String, path: String) throws(ConfigError) -> [UserAccount] {
        var users: [UserAccount] = []
        for (i, element) in list.enumerated() {
            var reader = try ConfigReader(element, file: file, path: path + "[\(i)]")
            let name = try reader.requiredString("name")
            guard !users.contains(where: { $0.name == name }) else { throw reader.error("name", "a name no other user uses") }
            let hash = try reader.requiredString("password", "a crypt(3) hash: $y$... (mkpasswd -m yescrypt) or $2b$...")
            let groups = try names(&reader, "groups")
            guard let user = UserAccount(name: name, passwordHash: hash, groups: groups) else {
                throw reader.error(PasswordHash.isSupported(hash) ? "name" : "password", PasswordHash.isSupported(hash)
                                   ? "1 to 64 printable ASCII characters without |"
                                   : "a crypt(3) hash: $y$... (mkpasswd -m yescrypt, rowstream hash-password) or $2b$..., never the password")
            }
            try reader.finish()
            users.append(user)
        }
        return users
    }

    /// `{"users": [NAME], "groups": [NAME]}` at `key` of `reader`.
    private static func allowList(_ reader: inout ConfigReader, _ key: String) throws(ConfigError) -> AllowList {
        guard var list = try reader.object(key) else { return AllowList() }
        let allow = AllowList(users: try names(&list, "users"), groups: try names(&list, "groups"))
        try list.finish()
        return allow
    }

    /// An array of non-empty strings at `key` (absent: empty).
    private static func names(_ reader: inout ConfigReader, _ key: String) throws(ConfigError) -> Set<String> {
        guard let list = try reader.array(key) else { return [] }
        var names: Set<String> = []
        for value in list {
            guard case .string(let name) = value, !name.isEmpty else { throw reader.error(key, "an array of non-empty names") }
            names.insert(name)
        }
        return names
    }

    /// An array of dotted-quad IPv4 addresses at `key`.
    private static func addresses(_ reader: inout ConfigReader, _ key: String) throws(ConfigError) -> Set<UInt32>? {
        guard let list = try reader.array(key) else { return nil }
        var addresses: Set<UInt32> = []
        for value in list {
            guard case .string(let text) = value, let address = IPv4Address.parse(text) else {
                throw reader.error(key, "an array of IPv4 addresses such as 10.0.0.5")
            }
            addresses.insert(address)
        }
        return addresses
    }

    private static func headerName(_ name: String, _ reader: ConfigReader, _ key: String) throws(ConfigError) -> String {
        guard !name.isEmpty, name.utf8.allSatisfy({ (0x21...0x7E).contains($0) && $0 != 0x3A }) else {
            throw reader.error(key, "a header name")
        }
        return name
    }
}
