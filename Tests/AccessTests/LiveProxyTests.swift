import Access
import HTTPServer
import Testing
import TestSupport

@Suite("Access: the proxy's headers over real connections")
struct LiveProxyTests {
    @Test("X-Forwarded-User from 127.0.0.1 (not the proxy) is ignored; from the proxy's 127.0.0.2 it names the viewer")
    func spoofFromAnotherAddress() async throws {
        var access = AccessConfiguration(mode: .proxy)
        access.proxy = TrustedProxy(addresses: [IPv4Address.parse("127.0.0.2")!])
        let echo = ClosureResponder { _ in .now(.text("viewer=\(Viewer.current.name)")) }
        var configuration = HTTPServerConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.eventLoopCount = 1
        let server = HTTPServer(configuration: configuration, responder: AccessResponder(
            inner: echo, configuration: access, mode: .proxy, tables: [], pages: [:]))
        let port = try server.start()
        defer { server.shutdown() }
        let headers = ["X-Forwarded-User": "admin", "X-Forwarded-Groups": "ops"]
        let spoof = try await TestConnection(port: port).exchange("GET", "/x", headers: headers)
        #expect(spoof.status == 401)
        #expect(!spoof.body.contains("admin"))
        let proxied = try await TestConnection(port: port, sourceAddress: "127.0.0.2").exchange("GET", "/x", headers: headers)
        #expect(proxied.status == 200)
        #expect(proxied.body == "viewer=admin")
    }
}
