import HTTPServer
import HTTPServerTesting
import RowstreamKit

/// Your bindings served in-process, for tests: the same routes, sessions, live feeds and heartbeats as
/// ``RowstreamServer/start(_:pages:configuration:)``, answered without sockets (`host`, `port`, connection caps
/// and the event-loop count are not used). Requests go through an ``InProcessClient``; a stream route's events are
/// read from an ``InProcessStream``.
///
/// ```swift
/// let server = try RowstreamTestServer([binding])
/// defer { server.shutdown() }
/// let listing = await server.client.get("/api/tables")
/// #expect(listing.status == .ok)
/// let stream = try #require(await server.client.get("/tables/people/stream").stream)
/// defer { stream.close() }
/// let rows = try await stream.next(named: "rows").event
/// ```
///
/// Thread-safe: ``shutdown()`` may be called from any thread. Close the streams you open (as a client hanging up
/// would): shutdown stops the live feeds and heartbeats, not the in-process streams.
public final class RowstreamTestServer: Sendable {
    /// Calls the server's routes.
    public let client: InProcessClient
    private let server: RowstreamServer

    /// Validates and wires `bindings` and `pages` as `RowstreamServer.start` does; throws the same errors (except
    /// those of listening).
    public init(
        _ bindings: [TableBinding], pages: [DashboardPage] = [], configuration: ServerConfiguration = ServerConfiguration()
    ) throws {
        server = try RowstreamServer.inProcess(bindings, pages: pages, configuration: configuration)
        client = InProcessClient(server.responder)
    }

    /// Stops the live feeds and the heartbeat timer. Idempotent.
    public func shutdown() {
        server.shutdown()
    }
}
