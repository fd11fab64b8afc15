import Foundation
import Glibc
import TestSupport

/// A `redis-server` a test starts (Debian's, /usr/bin/redis-server): on a unix socket in a temp dir, or on a
/// 127.0.0.1 port; no persistence. Its output is drained (never blocks it). Stopped by its PID (`kill`); `restart`
/// starts a new one on the same address. Every wait is bounded. Confined to the test that made it.
final class RedisServerProcess: @unchecked Sendable {
    static let executable = "/usr/bin/redis-server"

    let directory: String
    let socketPath: String
    /// The TCP port, when started with `tcp: true`.
    private(set) var port: Int?
    private var process: SpawnedProcess?

    /// Starts one on `directory/redis.sock` (and, with `tcp`, on a free 127.0.0.1 port: picked by binding port 0
    /// and closing it, retried when another process took it meanwhile).
    static func start(tcp: Bool = false, _ extraArguments: [String] = []) async throws -> RedisServerProcess {
        let server = RedisServerProcess(directory: try makeTemporaryDirectory(), extraArguments: extraArguments)
        for _ in 0..<5 {
            server.port = tcp ? try freePort() : nil
            if try await server.launch() { return server }
        }
        throw TestConnection.Failure(description: "redis-server did not start")
    }

    private let extraArguments: [String]

    private init(directory: String, extraArguments: [String]) {
        self.directory = directory
        self.extraArguments = extraArguments
        socketPath = directory + "/redis.sock"
    }

    deinit {
        process?.send(SIGKILL)
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Kills it (SIGKILL) and waits until it has exited.
    func kill() async throws {
        guard let process else { return }
        process.send(SIGKILL)
        try await offPool { process.waitUntilExit() }
        self.process = nil
    }

    /// Starts it again on the same socket (and port).
    func restart() async throws {
        try await kill()
        for _ in 0..<5 where try await launch() { return }
        throw TestConnection.Failure(description: "redis-server did not restart")
    }

    /// Starts the process; true once it accepts connections on every address, false if it exited (port taken).
    private func launch() async throws -> Bool {
        unlink(socketPath)
        var arguments = ["--port", String(port ?? 0), "--unixsocket", socketPath, "--save", "", "--appendonly", "no",
                         "--dir", directory, "--loglevel", "warning", "--daemonize", "no"]
        if port != nil { arguments += ["--bind", "127.0.0.1"] }
        arguments += extraArguments
        let process = try SpawnedProcess(Self.executable, arguments, environment: [:])
        Task.detached { _ = try? await offPool { process.output.readDataToEndOfFile() } }
        Task.detached { _ = try? await offPool { process.errors.readDataToEndOfFile() } }
        let path = socketPath, port = port
        let ready = await eventually {
            !process.isRunning || (Self.canConnect(unix: path) && (port.map { Self.canConnect(port: $0) } ?? true))
        }
        guard ready, process.isRunning else {
            process.send(SIGKILL)
            try await offPool { process.waitUntilExit() }
            return false
        }
        self.process = process
        return true
    }

    private static func canConnect(unix path: String) -> Bool {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: Array(path.utf8) + [0])
        }
        return connects(family: AF_UNIX, address)
    }

    private static func canConnect(port: Int) -> Bool {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port)).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return connects(family: AF_INET, address)
    }

    private static func connects<Address>(family: Int32, _ address: Address) -> Bool {
        let fd = socket(family, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var copy = address
        return withUnsafePointer(to: &copy) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<Address>.size)) == 0
            }
        }
    }

    /// A port that was free a moment ago: bind 127.0.0.1:0, read the port, close.
    private static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else { throw TestConnection.Failure(description: "bind 127.0.0.1:0: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// A fresh directory under /tmp (short: a unix socket path holds at most 107 bytes).
func makeTemporaryDirectory() throws -> String {
    var template = Array("/tmp/rowstream-redis-XXXXXX".utf8CString)
    guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
        throw TestConnection.Failure(description: "mkdtemp: errno \(errno)")
    }
    return String(cString: made)
}
