import RowstreamKit
import TestSupport
import Testing

/// The connection caps as a library user sets them (e.g. behind a reverse proxy, where every viewer shares the
/// proxy's address): the settings reach the HTTP server.
@Suite("Connection caps")
struct ConnectionCapTests {
    @Test func capsSetInTheConfigurationAnswer503() async throws {
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.eventLoopCount = 1
        configuration.maxConnectionsPerAddress = 2
        configuration.maxConnections = 3
        let server = try RowstreamServer.start([peopleTable(offsetSource(people(5)))], configuration: configuration)
        defer { server.shutdown() }

        let held = [try TestConnection(port: server.port), try TestConnection(port: server.port)]
        for connection in held {
            try connection.send("GET /healthz HTTP/1.1\r\nHost: h\r\n\r\n")
            #expect(try await connection.readResponse().status == 200)
        }
        let overAddress = try TestConnection(port: server.port)
        #expect(try await overAddress.readResponse().status == 503)

        let other = try TestConnection(port: server.port, sourceAddress: "127.0.0.2")
        try other.send("GET /healthz HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(try await other.readResponse().status == 200)
        let overProcess = try TestConnection(port: server.port, sourceAddress: "127.0.0.3")
        #expect(try await overProcess.readResponse().status == 503)
    }
}
