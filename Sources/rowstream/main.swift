// rowstream: the command-line entry point. Parses flags, starts the dashboard, stops it on SIGINT or SIGTERM.
import Dashboard
import Dispatch
import Foundation

var configuration = DashboardConfiguration()
configuration.publicDirectory = DashboardConfiguration.defaultPublicDirectory()
do {
    if try CommandLineOptions.parse(Array(CommandLine.arguments.dropFirst()), into: &configuration) == .help {
        print(CommandLineOptions.usage)
        exit(0)
    }
} catch {
    FileHandle.standardError.write(Data("rowstream: \(error)\n".utf8))
    exit(64)
}

let dashboard: Dashboard
do {
    dashboard = try Dashboard.start(configuration)
} catch {
    FileHandle.standardError.write(Data("rowstream: \(error)\n".utf8))
    exit(1)
}

ShutdownSignals.install { _ in
    FileHandle.standardError.write(Data("rowstream: shutting down\n".utf8))
    dashboard.shutdown()
}

let shownHost = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
let banner = "Rowstream serving http://\(shownHost):\(dashboard.port)/ (demo upstream on 127.0.0.1:\(dashboard.demoPort))\n"
FileHandle.standardOutput.write(Data(banner.utf8))
dashboard.waitUntilShutdown()
exit(0)
