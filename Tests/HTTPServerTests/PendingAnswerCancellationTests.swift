import Glibc
import TestSupport
import Testing
@testable import HTTPServer

/// A `.later` answer's task is cancelled when its connection goes first (``HTTPResult``): the client hung up, so
/// nobody will read the answer (issue 13, item 2: work whose caller left must be able to stop).
@Suite struct PendingAnswerCancellationTests {
    /// A responder whose answer waits at `gate` (TestSupport's), which the test never releases before the end: the
    /// gate counts the answer's arrival and whether its task was cancelled while it waited.
    static func waiting(_ gate: ReplyGate) -> ClosureResponder {
        ClosureResponder { _ in
            .later {
                _ = await gate.pass()
                return .text("late")
            }
        }
    }

    @Test(arguments: [false, true])
    func aClientThatHangsUpCancelsItsPendingAnswer(reset: Bool) async throws {
        let gate = ReplyGate()
        defer { gate.releaseAll() }
        try await withLiveServer(responder: Self.waiting(gate)) { _, port in
            let client = try TestConnection(port: port)
            try client.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await eventually { gate.arrived == 1 })
            if reset {  // RST instead of FIN
                var option = linger(l_onoff: 1, l_linger: 0)
                setsockopt(client.fd, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
            }
            client.closeNow()
            #expect(await eventually { gate.cancelled == 1 })
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
