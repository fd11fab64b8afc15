import Foundation
import Glibc

/// A `redis-server` a test starts (Debian's, /usr/bin/redis-server): on a unix socket in a temp dir, or on a
/// 127.0.0.1 port; no persistence. Shared by the Redis client's tests and the cluster tests (TestSupport). Its
/// output is drained (never blocks it). Stopped by its PID (`kill`); `restart` starts a new one on the same address;
/// `pause` hangs it. Every wait is bounded. Confined to the test that made it.
public final class RedisServerProcess: @unchecked Sendable {
    public static let executable = "/usr/bin/redis-server"

    public let directory: String
    public let socketPath: String
    /// The TCP port, when started with `tcp: true`.
    public private(set) var port: Int?
    private var process: SpawnedProcess?

    /// Starts one on `directory/redis.sock` (and, with `tcp`, on a free 127.0.0.1 port: picked by binding port 0
    /// and closing it, retried when another process took it meanwhile).
    public static func start(tcp: Bool = false, _ extraArguments: [String] = []) async throws -> RedisServerProcess {
        let server = RedisServerProcess(directory: try makeTemporaryDirectory(), extraArguments: extraArguments)
        for _ in 0..<5 {
            server.port = tcp ? try FreePort.reserve() : nil
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
    public func kill() async throws {
        guard let process else { return }
        process.send(SIGKILL)
        try await offPool { try process.waitUntilExit() }
        self.process = nil
    }

    /// Stops (`SIGSTOP`) or continues (`SIGCONT`) it: a hung Redis whose connections stay open.
    public func pause(_ paused: Bool = true) {
        process?.send(paused ? SIGSTOP : SIGCONT)
    }

    /// Starts it again on the same socket (and port).
    public func restart() async throws {
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
            try await offPool { try process.waitUntilExit() }
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
}

/// A fresh directory under /tmp (short: a unix socket path holds at most 107 bytes).
public func makeTemporaryDirectory() throws -> String {
    var template = Array("/tmp/rowstream-redis-XXXXXX".utf8CString)
    guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
        throw TestConnection.Failure(description: "mkdtemp: errno \(errno)")
    }
    return String(cString: made)
}
