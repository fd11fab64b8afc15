import Foundation
import Glibc
import Locking
import Synchronization
import TestSupport
import Testing

/// Signals handled by ``TestConnectionSignalTests``' no-op handler.
private let signalsHandled = Atomic<Int>(0)

/// The test client reads on through a signal. A `recv` on a socket with a receive timeout is never restarted after
/// a signal handler ran (signal(7)): it fails with EINTR. A child's SIGCHLD, or a debugger attaching to sample a
/// stuck run (docs/HARDENING.md, "Sanitizers"), must not fail whichever test was reading at the time.
@Suite struct TestConnectionSignalTests {
    @Test func aReadInterruptedByASignalReadsOn() async throws {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in signalsHandled.add(1, ordering: .relaxed) }
        sigemptyset(&action.sa_mask)
        sigaction(SIGUSR2, &action, nil)
        let gate = ReplyGate()
        let server = try FixtureServer { _ in .held(gate, .json("{}")) }
        defer { server.stop() }
        let connection = try TestConnection(port: Int(server.port))
        try connection.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        let reader = Lock<(thread: pthread_t, tid: String)?>(nil)
        let line = Task {
            try await offPool { () -> String? in
                var signals = sigset_t()   // threads started from the pool inherit its mask: every signal blocked
                sigemptyset(&signals)
                sigaddset(&signals, SIGUSR2)
                pthread_sigmask(SIG_UNBLOCK, &signals, nil)
                reader.withLock { $0 = (pthread_self(), Self.threadID()) }
                return try connection.readLineBlocking()
            }
        }
        // The reader blocks in recvfrom (the reply is held), and a signal interrupts it there.
        #expect(await eventually { reader.withLock { $0 }.map { Self.isReceiving($0.tid) } ?? false })
        let handled = signalsHandled.load(ordering: .relaxed)
        pthread_kill(try #require(reader.withLock { $0 }).thread, SIGUSR2)
        #expect(await eventually { signalsHandled.load(ordering: .relaxed) > handled })
        gate.release()

        #expect(try await line.value == "HTTP/1.1 200 Fixture")
    }

    /// The calling thread's kernel ID, from /proc/thread-self (a link to PID/task/TID).
    private static func threadID() -> String {
        let link = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")) ?? ""
        return String(link.split(separator: "/").last ?? "")
    }

    /// Whether thread `tid` of this process is blocked in `recvfrom` (x86_64 system call 45), from
    /// /proc/self/task/TID/syscall.
    private static func isReceiving(_ tid: String) -> Bool {
        let text = try? String(contentsOfFile: "/proc/self/task/\(tid)/syscall", encoding: .utf8)
        return text?.split(separator: " ").first == "45"
    }
}
