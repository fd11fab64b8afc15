import Foundation
import TestSupport
import Testing
@testable import HTTPServer

/// The accepting loop pauses before its waits while connections arrive as a storm
/// (`HTTPServerConfiguration.arrivalPause`), and only then: here a storm is 2 arrivals within an hour's window, so
/// which side of it a server is on does not depend on how fast the test runs. Pauses are counted in the statistics.
@Suite struct ArrivalPauseTests {
    @Test(arguments: [1, 2]) func theLoopPausesOnlyInAStorm(_ arrivals: Int) async throws {
        try await withLiveServer({ config in
            config.arrivalRate = ArrivalRate(window: .seconds(3_600), threshold: 2)
            config.arrivalPause = .microseconds(50)
        }, responder: okResponder) { server, port in
            var clients: [TestConnection] = []
            defer { clients.forEach { $0.closeNow() } }
            for _ in 0..<arrivals {
                let client = try TestConnection(port: port)
                clients.append(client)
                // Accepted and answered: the pass that accepted it has ended, and its end decided on a pause.
                #expect(try await client.exchange("GET", "/").status == 200)
            }
            if arrivals < 2 {
                #expect(server.statistics.arrivalPauses == 0)
            } else {
                // From now on every wait that would block is put off: the loop, idle, takes one.
                #expect(await eventually { server.statistics.arrivalPauses > 0 })
            }
        }
    }

    @Test func aZeroPauseNeverPauses() async throws {
        try await withLiveServer({ config in
            config.arrivalRate = ArrivalRate(window: .seconds(3_600), threshold: 1)
            config.arrivalPause = .zero
        }, responder: okResponder) { server, port in
            let client = try TestConnection(port: port)
            defer { client.closeNow() }
            #expect(try await client.exchange("GET", "/").status == 200)
            let second = try TestConnection(port: port)  // a wait of the idle loop came in between
            defer { second.closeNow() }
            #expect(try await second.exchange("GET", "/").status == 200)
            #expect(server.statistics.arrivalPauses == 0)
        }
    }
}
