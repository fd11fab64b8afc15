import Foundation
import Glibc
import Locking

/// A child process a test starts (the `rowstream` binary, `ip`, `tc`) with `posix_spawn`: its stdout and stderr
/// on pipes, stdin `/dev/null`, no other descriptor of the test process (closed from 3 up in the child), default
/// signal handling and an empty signal mask. Not Foundation's `Process`: on this toolchain (6.3.1) its `run()`
/// over-reads `/proc/self/fd` entries and now and then crashes the whole test process (seen in a busy run;
/// swift-corelibs-foundation PR #5472); the tests hold many sockets.
///
/// Thread-safe: the exit status lives in one `Lock`, and a signal is only sent while the child is not yet reaped
/// (under the same lock), so a reused PID is never signalled.
public final class SpawnedProcess: Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public let pid: pid_t
    /// The read ends of the child's stdout and stderr.
    public let output: FileHandle
    public let errors: FileHandle
    /// The wait status once reaped.
    private let reaped = Lock<Int32?>(nil)

    /// Starts `path` with `arguments` (after argv[0]) and exactly `environment`, from the calling thread (so in its
    /// network namespace).
    public init(_ path: String, _ arguments: [String], environment: [String: String]) throws {
        var outPipe: [Int32] = [-1, -1], errPipe: [Int32] = [-1, -1]
        guard pipe(&outPipe) == 0 else { throw Failure(description: "pipe: errno \(errno)") }
        guard pipe(&errPipe) == 0 else {
            outPipe.forEach { close($0) }
            throw Failure(description: "pipe: errno \(errno)")
        }
        for fd in outPipe + errPipe { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        let closeFromResult = Self.addCloseFrom.map { $0(&actions, 3) } ?? ENOSYS

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t(), mostSignals = sigset_t()
        sigemptyset(&noSignals)
        sigemptyset(&mostSignals)
        for signal in 1..<SIGSYS where signal != SIGKILL && signal != SIGSTOP { sigaddset(&mostSignals, signal) }
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &mostSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = closeFromResult == 0
            ? posix_spawn(&pid, path, &actions, &attributes, argv, envp) : closeFromResult
        close(outPipe[1])
        close(errPipe[1])
        guard spawned == 0 else {
            close(outPipe[0])
            close(errPipe[0])
            throw Failure(description: "posix_spawn \(path): error \(spawned)")
        }
        self.pid = pid
        output = FileHandle(fileDescriptor: outPipe[0], closeOnDealloc: true)
        errors = FileHandle(fileDescriptor: errPipe[0], closeOnDealloc: true)
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34+), which Swift's Glibc module does not declare.
    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32
    private static let addCloseFrom: AddCloseFrom? = {
        dlsym(nil, "posix_spawn_file_actions_addclosefrom_np").map { unsafeBitCast($0, to: AddCloseFrom.self) }
    }()

    /// Whether the child still runs (reaps it once it has exited).
    public var isRunning: Bool {
        reaped.withLock { status in
            if status != nil { return false }
            var raw: Int32 = 0
            guard waitpid(pid, &raw, WNOHANG) == pid else { return true }
            status = raw
            return false
        }
    }

    /// Its exit code, or the signal that ended it (as Foundation's `terminationStatus`); nil while it runs.
    public var terminationStatus: Int32? {
        guard !isRunning, let raw = reaped.withLock({ $0 }) else { return nil }
        return raw & 0x7f == 0 ? (raw >> 8) & 0xff : raw & 0x7f
    }

    /// Sends `signal` unless the child has been reaped.
    public func send(_ signal: Int32) {
        reaped.withLock { status in
            if status == nil { _ = kill(pid, signal) }
        }
    }

    /// Blocks (`eventuallyBlocking`) until the child has exited: only off the cooperative pool (`offPool`). Bounded:
    /// throws, naming the child, when it still runs after `limit` (× `TestTime.scale`); it is left running (the
    /// caller stops it by its PID).
    public func waitUntilExit(within limit: Duration = .seconds(60)) throws {
        guard eventuallyBlocking(timeout: limit, { !isRunning }) else {
            throw Failure(description: "pid \(pid) still runs after \(limit * TestTime.scale): the test gave up waiting for it")
        }
    }

    /// Stops the child as a server is stopped: SIGTERM, then SIGKILL if it still runs after `limit`; returns once
    /// it has been reaped.
    public func stop(within limit: Duration = .seconds(20)) async {
        send(SIGTERM)
        if await !eventually(timeout: limit, { !isRunning }) { send(SIGKILL) }
        _ = try? await offPool { try self.waitUntilExit() }
    }
}
