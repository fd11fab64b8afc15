import Foundation
import TestSupport
@testable import HTTPServer

/// Runs `body` against a live server on 127.0.0.1, port 0 (2 loops, 2 s grace unless `configure` says otherwise),
/// and shuts it down afterwards, off the cooperative pool (shutdown blocks while streams finish).
func withLiveServer(
    _ configure: (inout HTTPServerConfiguration) -> Void = { _ in },
    responder: any HTTPResponder,
    _ body: (HTTPServer, Int) async throws -> Void
) async throws {
    var config = HTTPServerConfiguration()
    config.port = 0
    config.eventLoopCount = 2
    config.shutdownGrace = .seconds(2)
    configure(&config)
    let server = HTTPServer(configuration: config, responder: responder)
    let port = try server.start()
    let outcome: Result<Void, any Error>
    do {
        try await body(server, port)
        outcome = .success(())
    } catch {
        outcome = .failure(error)
    }
    try await offPool { server.shutdown() }
    try outcome.get()
}

/// Answers every request with "ok".
let okResponder = ClosureResponder { _ in .now(.text("ok")) }
