import Foundation
import Glibc
import TestSupport

/// A unix socket that is not Redis: it listens (so connects succeed, into the backlog) and, only when the test
/// says so, accepts one connection, reads a request and writes the given bytes. For timeouts (it never answers)
/// and hostile replies. Confined to the test that made it; closed by deinit.
final class FakeRedisServer: @unchecked Sendable {
    let directory: String
    let path: String
    private let fd: Int32
    private var accepted: [Int32] = []

    init() throws {
        directory = try makeTemporaryDirectory()
        path = directory + "/fake.sock"
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8) + [0]) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0
            }
        }
        guard bound, listen(fd, 16) == 0 else { throw TestConnection.Failure(description: "fake server: \(errno)") }
    }

    deinit {
        accepted.forEach { close($0) }
        close(fd)
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Accepts the next connection (waiting at most 30 s), reads what it sent, and writes `bytes` to it; the
    /// connection stays open. With no bytes: returns once a command has arrived, answering nothing.
    func acceptAndWrite(_ bytes: [UInt8]) async throws {
        let listening = fd
        let client = try await offPool { () throws -> Int32 in
            var poller = pollfd(fd: listening, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 30_000) == 1 else { throw TestConnection.Failure(description: "no connection") }
            let client = accept(listening, nil, nil)
            guard client >= 0 else { throw TestConnection.Failure(description: "accept: \(errno)") }
            // Answer only once the command has arrived (a reply before it would be one to nothing).
            var request = pollfd(fd: client, events: Int16(POLLIN), revents: 0)
            var scratch = [UInt8](repeating: 0, count: 4096)
            guard poll(&request, 1, 30_000) == 1, recv(client, &scratch, scratch.count, 0) > 0 else {
                close(client)
                throw TestConnection.Failure(description: "no request")
            }
            _ = bytes.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            return client
        }
        accepted.append(client)
    }
}
