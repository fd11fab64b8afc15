import Foundation
import JSON
import RowstreamKit
import Tables
import Upstream

/// A Rowstream config file (docs/CONFIG.md): the tables to serve, each from its own upstream API, and the
/// upstream client's limits. Parsing is a pure function of the bytes and the environment (fuzzable).
///
/// Thread-safe: an immutable value.
public struct ConfigFile: Sendable {
    /// The tables, in file order (the first is the home page's).
    public var tables: [TableConfig]
    /// Limits of the one upstream client all tables share.
    public var upstream: UpstreamClientConfiguration
    /// Values of the environment variables the file references: redacted from every message shown or logged.
    public var secrets: [String] = []
    /// Pages of several tables on one event stream (`pages`), in file order.
    public var pages: [DashboardPage] = []
    /// The sealing key file (`secretFile`, `${NAME}` filled from the environment; docs/SCALING.md): the keys
    /// themselves never appear in a config file. `--secret-file` and `ROWSTREAM_SECRET_FILE` take precedence.
    public var secretFile: String?
    /// The cluster's Redis (`redis`), unless `--redis` says otherwise.
    public var redis: RedisURL?
    /// The pages' `frame-ancestors` (`frameAncestors`, docs/SECURITY.md): `--frame-ancestors` takes precedence.
    public var frameAncestors: [String]?
    /// Origins whose pages may POST as the server's own (`allowedOrigins`, docs/SECURITY.md, "Forged requests").
    public var allowedOrigins: [String] = []
    /// Whether those origins' pages may send cookies (`allowCredentials`, docs/EMBED.md); nil: not given.
    public var allowCredentials: Bool?
    /// Who may see what (`access`, docs/SECURITY.md); nil: not configured (`--access` may choose the mode).
    public var access: AccessConfiguration?
    /// How long a deferred answer may take (`responseTimeoutSeconds`, ``ResponseTimeout``); nil: not given.
    /// `--response-timeout-seconds` takes precedence.
    public var responseTimeout: Duration?

    /// Reads and validates the file at `path`; `${NAME}` references are filled from `environment`.
    public static func load(path: String, environment: [String: String] = ProcessInfo.processInfo.environment)
        throws(ConfigError) -> ConfigFile {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigError(file: path, keyPath: "", expected: "a readable file")
        }
        return try parse([UInt8](data), file: path, environment: environment)
    }

    /// Parses and validates config JSON. `file` only names the source in errors.
    public static func parse(_ bytes: [UInt8], file: String, environment: [String: String]) throws(ConfigError) -> ConfigFile {
        let json: JSONValue
        do throws(JSONError) {
            json = try JSONValue.parse(bytes)
        } catch {
            throw ConfigError(file: file, keyPath: "", expected: "valid JSON (\(error))")
        }
        var root = try ConfigReader(json, file: file, path: "")
        guard let tableList = try root.array("tables"), !tableList.isEmpty else {
            throw root.error("tables", "a non-empty array of tables")
        }
        // The tables' default time zone and locale (each table may set its own).
        let viewerFormats = try ViewerFormatsConfig.read(&root)
        var tables: [TableConfig] = []
        for (i, element) in tableList.enumerated() {
            let reader = try ConfigReader(element, file: file, path: "tables[\(i)]")
            var table = try TableConfig(reader, environment: environment)
            table.spec.viewerFormats = ViewerFormatsConfig.merged(table.spec.viewerFormats, defaults: viewerFormats)
            if tables.contains(where: { $0.spec.name == table.spec.name }) {
                throw reader.error("name", "a name no other table uses")
            }
            tables.append(table)
        }
        let skeleton = try root.object("skeleton").map { (reader) throws(ConfigError) in try SkeletonConfig.style(reader) }
        SkeletonConfig.apply(skeleton, to: &tables)
        let pages = try root.array("pages").map { (list) throws(ConfigError) in try Self.pages(list, file: file, tables: tables) }
        let upstream = try root.object("upstream").map { (reader) throws(ConfigError) in try upstreamOptions(reader) }
        let secretFile = try root.string("secretFile").map { (path) throws(ConfigError) in
            let path = try ConfigEnvironment.substitute(path, environment: environment, at: "secretFile", file: file)
            guard !path.isEmpty else { throw root.error("secretFile", "the path of a sealing key file") }
            return path
        }
        let redis = try root.string("redis").map { (text) throws(ConfigError) in
            guard let url = RedisURL(text) else { throw root.error("redis", RedisURL.expected) }
            return url
        }
        let frameAncestors = try root.stringList("frameAncestors")
        let allowedOrigins = try root.stringList("allowedOrigins") ?? []
        let allowCredentials = try root.bool("allowCredentials")
        let responseTimeout = try root.seconds("responseTimeoutSeconds", in: 1...3_600)
        if let responseTimeout, let slow = ResponseTimeout.tooShort(responseTimeout, for: tables) {
            throw root.error("responseTimeoutSeconds", ResponseTimeout.expected(for: slow))
        }
        let access = try root.value("access").map { (value) throws(ConfigError) in
            try Self.access(value, file: file, tables: tables, pages: pages ?? [])
        }
        try root.finish()
        let secrets = ConfigEnvironment.referencedValues(in: String(decoding: bytes, as: UTF8.self), environment: environment)
        let redactor = SecretRedactor(secrets: secrets)
        for index in tables.indices { tables[index].checks.redactor = redactor }
        return ConfigFile(tables: tables, upstream: upstream ?? UpstreamClientConfiguration(), secrets: secrets,
                          pages: pages ?? [], secretFile: secretFile, redis: redis,
                          frameAncestors: frameAncestors, allowedOrigins: allowedOrigins, allowCredentials: allowCredentials,
                          access: access, responseTimeout: responseTimeout)
    }

    private static func upstreamOptions(_ reader: ConfigReader) throws(ConfigError) -> UpstreamClientConfiguration {
        var reader = reader
        var options = UpstreamClientConfiguration()
        if let n = try reader.int("maxConcurrentTransfers", in: 1...1_024) { options.maxConcurrentTransfers = n }
        if let n = try reader.int("maxBodyBytes", in: 1_024...(1 << 30)) { options.maxBodyBytes = n }
        if let n = try reader.int("maxRedirects", in: 0...20) { options.maxRedirects = n }
        if let d = try reader.seconds("connectTimeoutSeconds", in: 0.1...120) { options.connectTimeout = d }
        if let n = try reader.int("lowSpeedBytesPerSecond", in: 1...(1 << 30)) { options.lowSpeedBytesPerSecond = n }
        if let n = try reader.int("lowSpeedSeconds", in: 1...600) { options.lowSpeedSeconds = n }
        if let agent = try reader.string("userAgent") {
            guard !agent.isEmpty, !agent.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
                throw reader.error("userAgent", "a non-empty string without control characters")
            }
            options.userAgent = agent
        }
        try reader.finish()
        return options
    }
}
