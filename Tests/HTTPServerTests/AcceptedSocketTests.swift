import Foundation
import TestSupport
import Testing
@testable import HTTPServer

/// The server's side of an accepted connection has TCP_NODELAY (events go out as they are written, no Nagle delay).
/// It is set once on the listening socket, which Linux copies to every accepted socket: the test finds the server's
/// socket among this process's descriptors (the server runs in-process) and reads the option there.
@Suite struct AcceptedSocketTests {
    @Test func acceptedConnectionsHaveNoDelay() async throws {
        try await withLiveServer(responder: okResponder) { _, port in
            let client = try TestConnection(port: port)
            defer { client.closeNow() }
            #expect(try await client.exchange("GET", "/").status == 200)  // accepted and served by now
            let clientPort = try #require(Self.port(of: client.fd, peer: false))
            let server = try #require(Self.descriptor { fd in
                Self.port(of: fd, peer: false) == port && Self.port(of: fd, peer: true) == clientPort
            }, "the server's end of the connection")
            var value: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            #expect(getsockopt(server, Int32(IPPROTO_TCP), TCP_NODELAY, &value, &length) == 0)
            #expect(value == 1)
        }
    }

    @Test func theListeningSocketHasNoDelay() throws {
        let (fd, _) = try ListeningSocket.open(host: "127.0.0.1", port: 0)
        defer { close(fd) }
        var value: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        #expect(getsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &value, &length) == 0)
        #expect(value == 1)
    }

    /// The local (or, with `peer`, remote) TCP port of socket `fd`; nil if it is not an IPv4 socket.
    static func port(of fd: Int32, peer: Bool) -> Int? {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                peer ? getpeername(fd, $0, &length) : getsockname(fd, $0, &length)
            }
        }
        guard named == 0, address.sin_family == sa_family_t(AF_INET) else { return nil }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// The first of this process's descriptors that `matches`.
    static func descriptor(where matches: (Int32) -> Bool) -> Int32? {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return names.compactMap { Int32($0) }.sorted().first(where: matches)
    }
}

extension AcceptedSocketTests {
    /// Every accepted socket has the dead-peer detection whole (`DeadPeerDetection`), copied by Linux from the
    /// listening socket: a stream's and a plain request's alike, with no `setsockopt` per connection.
    @Test func everyAcceptedSocketHasTheDeadPeerTimers() async throws {
        var builder = RouterBuilder()
        builder.get("/events") { _, _ in .now(.eventStream { _ in }) }
        builder.get("/plain") { _, _ in .now(.text("ok")) }
        try await withLiveServer({ $0.deadPeerTimeout = .seconds(9) }, responder: builder.build()) { server, port in
            let plain = try TestConnection(port: port)
            defer { plain.closeNow() }
            #expect(try await plain.exchange("GET", "/plain").status == 200)
            let stream = try TestConnection(port: port)
            defer { stream.closeNow() }
            try stream.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await stream.readHead().status == 200)
            #expect(await eventually { server.statistics.openStreams == 1 })

            for client in [stream, plain] {
                let side = try #require(Self.serverSide(of: client, port: port))
                #expect(Self.option(side, SOL_SOCKET, SO_KEEPALIVE) == 1)
                #expect(Self.option(side, Int32(IPPROTO_TCP), TCP_USER_TIMEOUT) == 9_000)
                #expect(Self.option(side, Int32(IPPROTO_TCP), TCP_KEEPIDLE) == 9)
                #expect(Self.option(side, Int32(IPPROTO_TCP), TCP_KEEPINTVL) == 3)
                #expect(Self.option(side, Int32(IPPROTO_TCP), TCP_KEEPCNT) == 3)
            }
        }
    }

    /// With the detection off (`deadPeerTimeout` nil) an accepted socket keeps the kernel's defaults.
    @Test func withoutTheDetectionAnAcceptedSocketHasNoKeepalive() async throws {
        try await withLiveServer({ $0.deadPeerTimeout = nil }, responder: okResponder) { _, port in
            let plain = try TestConnection(port: port)
            defer { plain.closeNow() }
            #expect(try await plain.exchange("GET", "/").status == 200)
            let side = try #require(Self.serverSide(of: plain, port: port))
            #expect(Self.option(side, SOL_SOCKET, SO_KEEPALIVE) == 0)
            #expect(Self.option(side, Int32(IPPROTO_TCP), TCP_USER_TIMEOUT) == 0)
        }
    }

    /// The server's end (in this process) of `client`'s connection to `port`.
    static func serverSide(of client: TestConnection, port: Int) -> Int32? {
        guard let clientPort = Self.port(of: client.fd, peer: false) else { return nil }
        return descriptor { fd in Self.port(of: fd, peer: false) == port && Self.port(of: fd, peer: true) == clientPort }
    }

    static func option(_ fd: Int32, _ level: Int32, _ name: Int32) -> Int32? {
        var value: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        return getsockopt(fd, level, name, &value, &length) == 0 ? value : nil
    }
}
