// rowstream: the command-line entry point. Parses flags, starts the dashboard, stops it on SIGINT or SIGTERM.
import Dashboard
import Dispatch
import Foundation
import RowstreamKit

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

ShutdownSignals.install { _ in
    FileHandle.standardError.write(Data("rowstream: shutting down\n".utf8))
    dashboard.shutdown()
}

let host = configuration.server.host
let shownHost = host.contains(":") ? "[\(host)]" : host
let source = config.map { "\($0.tables.count) table(s) from the config file" }
    ?? "demo upstream on 127.0.0.1:\(dashboard.demoPort)"
FileHandle.standardOutput.write(Data("Rowstream serving http://\(shownHost):\(dashboard.port)/ (\(source))\n".utf8))
dashboard.waitUntilShutdown()
exit(0)
