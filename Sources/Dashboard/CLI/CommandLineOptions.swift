import Foundation
import RowstreamKit

/// The `rowstream` command line, parsed into a `DashboardConfiguration` (its server part and the dashboard's
/// own). A pure function of the arguments and the environment (`ROWSTREAM_SECRET_FILE`).
public enum CommandLineOptions {
    public static let usage = """
    Usage: rowstream [options]
           rowstream keygen        print a new sealing key (a line for the --secret-file file)
           rowstream hash-token    read an API token on standard input, print its SHA-256 for the config
                                   (access.tokens[].sha256; docs/SECURITY.md)
           rowstream new-token     print a new random API token and its SHA-256
           rowstream hash-password read a password on standard input, print its yescrypt hash for the config
                                   (access.users[].password)

    Serves live, infinitely scrolling tables over Server-Sent Events, fed by the upstream APIs of a config file
    (docs/CONFIG.md), or by the built-in demo upstream when no config is given.

    Options:
      --config FILE           serve the tables of this JSON config file (secrets via ${ENV_VAR})
      --check-config FILE     validate FILE, fetch the first page of each table, print what was found, exit
      --secret-file FILE      seal resume tokens and proxy cursors with the keys in FILE (one base64 key per line,
                              the first seals, the others still open; docs/SCALING.md), so every instance and every
                              restart reads them; default: $ROWSTREAM_SECRET_FILE, else the config's secretFile,
                              else a random key per process
      --host ADDRESS          address to listen on (default 127.0.0.1); any address but loopback needs an
                              access mode (--access or the config's access)
      --access MODE           none, tokens, users or proxy: who may see the tables (docs/SECURITY.md); overrides the
                              config's access.mode. Default: none on loopback; required on any other address
      --port N                port to listen on, 0 for any free port (default 8080)
      --public DIR            folder with index.html, app.css, app.js (default: ./Public, or beside the build)
      --batch-size N          rows per batch, 1...500 (default 50)
      --demo-items N          rows in the demo upstream (default 2500)
      --demo-latency-ms N     latency of every demo upstream page in milliseconds (default 250)
      --demo-fail-every N     make every N-th demo upstream page fail with 503 (default: never)
      --demo-port N           the demo upstream's loopback port (default: any free port; Examples/Configs/live-demo.json: 8091)
      --demo-live-seconds N   demo live mode: a new customer on top and some records changed every N seconds;
                              the demo tables are live and refresh themselves every N seconds too (unless
                              --demo-refresh-seconds says otherwise), and on POST /tables/customers/refresh
      --demo-refresh-seconds N  the live demo tables refresh themselves every N seconds (default: the
                              --demo-live-seconds interval; 0: only on POST /tables/{name}/refresh)
      --demo-layout grid      the demo table as cards in a grid (default: rows)
      --demo-controls on|off  sort and status controls and a search by name above the demo table (default on,
                              but off with --demo-sections)
      --demo-page on|off      the page /pages/overview: the demo table, by city and as cards on one stream (default on)
      --demo-sections FIELD   the demo table sorted by FIELD (city, status, plan, ...) in sections, MRR summed
      --bench-stamp on        bench mode: the demo table is live and every demo page's names carry ts=<unix us>
                              seq=<request number>, so each POST /tables/customers/refresh broadcasts an update
                              (refresh not rate-limited)
      --heartbeat-seconds N   heartbeat comment interval on event streams (default 15)
      --dead-peer-seconds N   close a stream whose viewer leaves sent data unacknowledged this long (TCP user
                              timeout and keepalive; default 30, 0: kernel defaults, about 15 minutes)
      --drain-seconds N       on SIGTERM (or SIGINT) stop accepting, tell each open stream to reconnect after a
                              random delay within N seconds, close it and exit (default 10; 0: no spreading;
                              docs/SCALING.md). A second signal exits at once
      --shutdown-grace-seconds N  how long a drain lets in-flight answers finish before it closes them (default 5)
      --response-timeout-seconds N  1...3600: how long an answer that waits (a batch fetched again, a proxied page,
                              a sign-in) may take before it is cancelled with 504; before the config's
                              responseTimeoutSeconds. Must outlast every table's slowest upstream fetch (its
                              timeoutSeconds times retry attempts, plus the waits) by 10 s (default: 120, or more
                              when a table needs it; docs/CONFIG.md)
      --instance-tag N        0...255: every session id (and its POST URLs) starts with N as two hex digits, so
                              a proxy routes a session's POSTs to this instance (docs/SCALING.md; default: none)
      --reuse-port            listen with SO_REUSEPORT: several instances on one port, the kernel spreading
                              new connections over them; needs --redis (or the config's redis), through which
                              each answers any request (docs/SCALING.md)
      --io-uring on|off       send through io_uring, a loop's sends batched into one system call (default: on,
                              or off when the environment has ROWSTREAM_IO_URING=off); where the kernel
                              refuses io_uring, sendmsg as with off (docs/OPERATING.md)
      --max-connections N     connections open at once, past it 503 (default: open-file limit less 256)
      --max-connections-per-address N  from one client address, past it 503 (default 4096; 0: no cap; behind a
                              reverse proxy every viewer has the proxy's address: raise it, limit in the proxy)
      --redis URL             share pages (and one upstream fetch per page) with the other instances through
                              this Redis: redis://HOST[:PORT][/DB] or unix:///PATH (docs/SCALING.md; default:
                              none, this instance alone)
      --frame-ancestors LIST  who may frame the pages: space-separated CSP sources, e.g. "'self'" or
                              "https://intranet.example" (default 'none'; docs/SECURITY.md)
      --allowed-origins LIST  space-separated origins (https://portal.example) whose pages may embed the tables
                              (<rowstream-table>, docs/EMBED.md) and POST as the server's own; before the
                              config's allowedOrigins (default: none)
      --allow-credentials on|off  let those origins' pages send cookies (default off; docs/EMBED.md)
      -h, --help              show this help
    """

    /// What the command line asks for.
    public enum Parsed: Equatable, Sendable {
        /// Serve the demo table.
        case run
        /// Serve the tables of the config file at this path.
        case runWithConfig(String)
        /// Validate the config file at this path, fetch each table's first page, report, exit.
        case checkConfig(String)
        /// Print a new sealing key and exit.
        case keygen
        /// Read an API token on standard input, print its SHA-256, exit.
        case hashToken
        /// Print a new API token and its SHA-256, exit.
        case newToken
        /// Read a password on standard input, print its yescrypt hash, exit.
        case hashPassword
        case help
    }

    public struct ParseError: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    /// The environment variable naming the sealing key file when `--secret-file` is not given.
    public static let secretFileVariable = "ROWSTREAM_SECRET_FILE"

    /// Parses `arguments` (without the program name) into `configuration`; `environment` gives the key file when
    /// no `--secret-file` does (``secretFileVariable``).
    public static func parse(
        _ arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment,
        into configuration: inout DashboardConfiguration
    ) throws(ParseError) -> Parsed {
        if let path = environment[secretFileVariable], !path.isEmpty { configuration.secretFile = path }
        var remaining = arguments[...]
        var parsed = Parsed.run
        var refreshGiven = false
        configuration.demo.page = true   // the command line serves the demo page unless --demo-page off
        var controlsGiven = false
        while let flag = remaining.popFirst() {
            if flag == "-h" || flag == "--help" { return .help }
            if flag == "keygen" {   // last, so that Scripts/run keygen (after its --public) works too
                guard remaining.isEmpty else { throw ParseError(description: "keygen takes no options") }
                return .keygen
            }
            let subcommands: [String: Parsed] = ["hash-token": .hashToken, "new-token": .newToken,
                                                 "hash-password": .hashPassword]
            if let subcommand = subcommands[flag] {
                guard remaining.isEmpty else { throw ParseError(description: "\(flag) takes no options") }
                return subcommand
            }
            if flag == "--reuse-port" {   // takes no value
                configuration.server.reusePort = true
                continue
            }
            guard let value = remaining.popFirst() else {
                throw ParseError(description: "\(flag) needs a value (see --help)")
            }
            switch flag {
            case "--config": parsed = .runWithConfig(value)
            case "--check-config": parsed = .checkConfig(value)
            case "--secret-file":
                guard !value.isEmpty else { throw ParseError(description: "--secret-file takes a file path") }
                configuration.secretFile = value
            case "--host": configuration.server.host = value
            case "--access":
                guard let mode = AccessMode(rawValue: value) else {
                    throw ParseError(description: "--access takes " + AccessMode.allCases.map(\.rawValue).joined(separator: ", "))
                }
                configuration.accessMode = mode
            case "--port": configuration.server.port = try integer(flag, value, in: 0...65_535)
            case "--public": configuration.server.publicDirectory = value
            case "--batch-size": configuration.batchSize = try integer(flag, value, in: 1...500)
            case "--demo-items": configuration.demo.itemCount = try integer(flag, value, in: 0...10_000_000)
            case "--demo-latency-ms":
                configuration.demo.latency = .milliseconds(try integer(flag, value, in: 0...600_000))
            case "--demo-fail-every": configuration.demo.failEvery = try integer(flag, value, in: 1...1_000_000)
            case "--demo-port": configuration.demo.port = try integer(flag, value, in: 0...65_535)
            case "--demo-sections":
                guard DemoView.isValidSort(value), !value.hasPrefix("-") else {
                    throw ParseError(description: "--demo-sections takes one of " + DemoView.sortKeys.sorted().joined(separator: ", "))
                }
                configuration.demo.sectionField = value
            case "--demo-layout":
                guard value == "rows" || value == "grid" else { throw ParseError(description: "--demo-layout takes rows or grid") }
                configuration.demo.grid = value == "grid"
            case "--demo-page":
                configuration.demo.page = try onOff(flag, value)
            case "--demo-controls":
                configuration.demo.controls = try onOff(flag, value)
                controlsGiven = true
            case "--demo-refresh-seconds":
                let seconds = try integer(flag, value, in: 0...86_400)
                configuration.demo.refreshEvery = seconds == 0 ? nil : .seconds(seconds)
                refreshGiven = true
            case "--demo-live-seconds":
                configuration.demo.liveEvery = .seconds(try integer(flag, value, in: 1...86_400))
            case "--bench-stamp":
                configuration.demo.benchStamp = try onOff(flag, value)
            case "--io-uring":
                configuration.server.ioUring = try onOff(flag, value)
            case "--heartbeat-seconds":
                configuration.server.heartbeatInterval = .seconds(try integer(flag, value, in: 1...3_600))
            case "--dead-peer-seconds":
                let seconds = try integer(flag, value, in: 0...86_400)
                configuration.server.deadPeerTimeout = seconds == 0 ? nil : .seconds(seconds)
            case "--drain-seconds":
                configuration.server.drainWindow = .seconds(try integer(flag, value, in: 0...3_600))
            case "--shutdown-grace-seconds":
                configuration.server.shutdownGrace = .seconds(try integer(flag, value, in: 1...3_600))
            case "--response-timeout-seconds":
                configuration.responseTimeout = .seconds(try integer(flag, value, in: 1...3_600))
            case "--instance-tag":
                configuration.server.instanceTag = UInt8(try integer(flag, value, in: 0...255))
            case "--max-connections":
                configuration.server.maxConnections = try integer(flag, value, in: 1...1_000_000)
            case "--max-connections-per-address":
                let cap = try integer(flag, value, in: 0...1_000_000)
                configuration.server.maxConnectionsPerAddress = cap == 0 ? Int.max : cap
            case "--redis":
                guard let url = RedisURL(value) else { throw ParseError(description: "--redis takes " + RedisURL.expected) }
                configuration.redis = url
            case "--frame-ancestors":
                let sources = value.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
                guard !sources.isEmpty else { throw ParseError(description: "--frame-ancestors takes CSP sources, e.g. 'self'") }
                configuration.frameAncestors = sources
            case "--allowed-origins":
                let origins = value.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
                guard !origins.isEmpty else { throw ParseError(description: "--allowed-origins takes origins, e.g. https://portal.example") }
                configuration.allowedOrigins = origins
            case "--allow-credentials":
                configuration.allowCredentials = try onOff(flag, value)
            default:
                throw ParseError(description: "unknown option \(flag) (see --help)")
            }
        }
        // Live mode changes the demo data; without a refresh the tables would never show it.
        // The demo table's sort, status and search unless --demo-controls off; not by default with sections (their
        // order is the section field's: a sort control would scatter them).
        if !controlsGiven { configuration.demo.controls = configuration.demo.sectionField == nil }
        if !refreshGiven, let every = configuration.demo.liveEvery { configuration.demo.refreshEvery = every }
        return parsed
    }

    /// `on` as true, `off` as false; anything else is an error naming the flag.
    private static func onOff(_ flag: String, _ value: String) throws(ParseError) -> Bool {
        guard value == "on" || value == "off" else { throw ParseError(description: "\(flag) takes on or off") }
        return value == "on"
    }

    private static func integer(_ flag: String, _ value: String, in range: ClosedRange<Int>) throws(ParseError) -> Int {
        guard let number = Int(value), range.contains(number) else {
            throw ParseError(description: "\(flag) takes a whole number in \(range.lowerBound)...\(range.upperBound), not '\(value)'")
        }
        return number
    }
}
