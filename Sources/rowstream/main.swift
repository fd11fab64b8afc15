// rowstream: the command-line entry point. Parses flags, starts the dashboard, drains and stops it on SIGINT or SIGTERM.
import Dashboard
import Dispatch
import Foundation
import RowstreamKit
import Sealing
import Locking

// Before anything uses libcrypto: no cleanup of it at exit, while other threads may still use it.
CryptoLibrary.keepUntilExit()

func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("rowstream: \(message)\n".utf8))
    exit(status)
}

var configuration = DashboardConfiguration()
let parsed: CommandLineOptions.Parsed
do {
    parsed = try CommandLineOptions.parse(Array(CommandLine.arguments.dropFirst()), into: &configuration)
} catch {
    fail("\(error)", status: 64)
}

var config: ConfigFile? = nil
switch parsed {
case .help:
    print(CommandLineOptions.usage)
    exit(0)
case .keygen:
    print(SealingKeyFile.newKey())
    exit(0)
case .hashToken:
    // From standard input, not the command line: arguments show in `ps` and shell history.
    guard let line = readLine(strippingNewline: true), !line.isEmpty else {
        fail("hash-token reads the token on standard input (e.g. `rowstream hash-token < token.txt`)", status: 64)
    }
    print(APIToken.hash(line))
    exit(0)
case .hashPassword:
    guard let line = readLine(strippingNewline: true), !line.isEmpty else {
        fail("hash-password reads the password on standard input (e.g. `rowstream hash-password`, then type it)", status: 64)
    }
    guard let hash = PasswordHash.make(line) else { fail("libcrypt could not hash the password", status: 1) }
    print(hash)
    exit(0)
case .newToken:
    let token = APIToken.random()
    print("token:  \(token)\nsha256: \(APIToken.hash(token))")
    exit(0)
case .run:
    break
case .runWithConfig(let path), .checkConfig(let path):
    do {
        config = try ConfigFile.load(path: path)
    } catch {
        fail("\(error)", status: 1)
    }
}

if case .checkConfig(let path) = parsed, let config {
    print("\(path): valid, \(config.tables.count) table(s)")
    if let secretFile = configuration.secretFile ?? config.secretFile {
        do {
            let keys = try SealingKeyFile.load(path: secretFile)
            print("\(secretFile): \(keys.count) sealing key(s), the first seals")
            if let warning = SealingKeyFile.permissionWarning(path: secretFile) { print(warning) }
        } catch {
            fail("\(error)", status: 1)
        }
    }
    let ok = ConfigCheck.run(config) { line in print(line) }
    exit(ok ? 0 : 1)
}

let dashboard: Dashboard
do {
    dashboard = try Dashboard.start(configuration, config: config)
} catch {
    fail("\(error)", status: 1)
}

// The first SIGTERM or SIGINT drains (docs/SCALING.md, "Deploys and draining"): no new connections, every stream
// told to reconnect within --drain-seconds, exit 0 once in-flight answers are done (bounded by the grace time).
// A second signal exits at once, with 128 + its number, as a shell reports a process a signal ended.
let signalsReceived = Lock(0)
ShutdownSignals.install { number in
    let count = signalsReceived.withLock { count -> Int in
        count += 1
        return count
    }
    guard count == 1 else {
        FileHandle.standardError.write(Data("rowstream: second signal, exiting without draining\n".utf8))
        exit(128 + number)
    }
    FileHandle.standardError.write(Data("rowstream: shutting down\n".utf8))
    // Off the signal's handler: a Dispatch source runs its handler one call at a time, so a handler still inside
    // the drain would hold back the second signal.
    DispatchQueue.global().async { dashboard.shutdown() }
}

let host = configuration.server.host
let shownHost = host.contains(":") ? "[\(host)]" : host
let source = config.map { "\($0.tables.count) table(s) from the config file" }
    ?? "demo upstream on 127.0.0.1:\(dashboard.demoPort)"
FileHandle.standardOutput.write(Data("Rowstream serving http://\(shownHost):\(dashboard.port)/ (\(source))\n".utf8))
dashboard.waitUntilShutdown()
exit(0)
