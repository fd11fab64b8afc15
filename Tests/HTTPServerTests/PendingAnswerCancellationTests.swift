import Glibc
import Synchronization
import TestSupport
import Testing
@testable import HTTPServer

/// A `.later` answer's task is cancelled when its connection goes first (``HTTPResult``): the client hung up, so
/// nobody will read the answer (issue 13, item 2: work whose caller left must be able to stop).
@Suite struct PendingAnswerCancellationTests {
    /// Whether the pending answer started and whether its task saw cancellation. Thread-safe: atomics.
    final class Probe: Sendable {
        let started = Atomic<Bool>(false)
        let cancelled = Atomic<Bool>(false)
    }

    /// A responder whose answer waits (bounded: 20 s) until its task is cancelled.
    static func waiting(_ probe: Probe) -> ClosureResponder {
        ClosureResponder { _ in
            .later {
                probe.started.store(true, ordering: .releasing)
                for _ in 0..<2_000 where !Task.isCancelled { try? await Task.sleep(for: .milliseconds(10)) }
                probe.cancelled.store(Task.isCancelled, ordering: .releasing)
                return .text("late")
            }
        }
    }

    @Test(arguments: [false, true])
    func aClientThatHangsUpCancelsItsPendingAnswer(reset: Bool) async throws {
        let probe = Probe()
        try await withLiveServer(responder: Self.waiting(probe)) { _, port in
            let client = try TestConnection(port: port)
            try client.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await eventually { probe.started.load(ordering: .acquiring) })
            if reset {  // RST instead of FIN
                var option = linger(l_onoff: 1, l_linger: 0)
                setsockopt(client.fd, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
            }
            client.closeNow()
            #expect(await eventually { probe.cancelled.load(ordering: .acquiring) })
        }
    }

    @Test func aClientThatStaysGetsTheAnswer() async throws {
        try await withLiveServer(responder: ClosureResponder { _ in .later { .text("done") } }) { _, port in
            let client = try TestConnection(port: port)
            let answer = try await client.exchange("GET", "/slow")
            #expect(answer.status == 200 && answer.body == "done")
        }
    }
}
