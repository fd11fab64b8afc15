import Foundation

// rowstream-load: holds many SSE viewers against a Rowstream server on 127.0.0.1 with churn, and checks that
// each saw every row exactly once. Single-threaded (one epoll loop). Prints one JSON line of counts; exits 1
// when a violation was seen. Usage: rowstream-load --port P [--viewers N] [--seconds S]
func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("rowstream-load: \(message)\n".utf8))
    exit(2)
}

var port = 0, viewers = 1000, seconds = 30
var arguments = CommandLine.arguments.dropFirst()
while let flag = arguments.popFirst() {
    guard let value = arguments.popFirst().flatMap({ Int($0) }), value >= 0 else {
        fail("\(flag) needs a number\nusage: rowstream-load --port P [--viewers N] [--seconds S]")
    }
    switch flag {
    case "--port": port = value
    case "--viewers": viewers = value
    case "--seconds": seconds = min(value, 3600)
    default:
        fail("unknown flag \(flag)")
    }
}
guard port > 0, port < 65_536 else {
    fail("--port is required")
}
signal(SIGPIPE, SIG_IGN)
let client = LoadClient(port: port, viewers: viewers, seconds: seconds)
client.run()
print(client.stats.json)
exit(client.stats.violations == 0 ? 0 : 1)
