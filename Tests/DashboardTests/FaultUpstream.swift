import Foundation
import TestSupport
import Synchronization

/// A misbehaving upstream on 127.0.0.1 port 0, on a thread of its own (never the cooperative pool). Requests for
/// a path starting `/good`, and first pages (no `cursor=`), get a valid page (`{"data":[...], "next_cursor":...}`);
/// any other request gets the bytes of `fault`, written raw so that framing itself can be broken. Stopped by
/// `stop()`, which closes every socket it holds and joins its thread. Thread rules: `stop()` from any thread; the rest is its own thread's.
final class FaultUpstream: @unchecked Sendable {
    enum Fault: String, CaseIterable, Sendable {
        case hang, reset, truncatedChunked, gzipBomb, tenMegabytePage, invalidUTF8, nonJSONError
    }

    let port: Int
    private let listenFD: Int32
    private let fault: Fault
    private let stopping = Atomic<Bool>(false)
    private let exited = DispatchSemaphore(value: 0)
    private var held: [Int32] = []

    init(_ fault: Fault) throws {
        self.fault = fault
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && listen(fd, 64) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else {
            close(fd)
            throw TestConnection.Failure(description: "fault upstream: bind failed, errno \(errno)")
        }
        listenFD = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [self] in
            serve()
            exited.signal()
        }
        thread.start()
    }

    func stop() {
        stopping.store(true, ordering: .releasing)
        _ = exited.wait(timeout: .now() + 5)
        close(listenFD)
    }

    private func serve() {
        while !stopping.load(ordering: .acquiring) {
            var entry = pollfd(fd: listenFD, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 50) > 0 else { continue }
            let client = accept(listenFD, nil, nil)
            guard client >= 0 else { continue }
            var timeout = timeval(tv_sec: 2, tv_usec: 0)
            setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            answer(client, path: readRequestPath(client))
        }
        for fd in held { close(fd) }
    }

    private func readRequestPath(_ fd: Int32) -> String {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while bytes.count < 65_536, !String(decoding: bytes, as: UTF8.self).contains("\r\n\r\n") {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            bytes += buffer[0..<count]
        }
        let line = String(decoding: bytes, as: UTF8.self).split(separator: "\r\n").first ?? ""
        return line.split(separator: " ").dropFirst().first.map(String.init) ?? ""
    }

    private func answer(_ fd: Int32, path: String) {
        if path.hasPrefix("/good") || !path.contains("cursor=") {
            let offset = Int(path.split(separator: "cursor=").last.flatMap { Int($0.prefix { $0.isNumber }) } ?? 0)
            let items = (offset..<offset + 5).map { "{\"id\":\($0),\"name\":\"row \($0)\"}" }.joined(separator: ",")
            return respond(fd, status: "200 OK", body: Array("{\"data\":[\(items)],\"next_cursor\":\"\(offset + 5)\"}".utf8))
        }
        switch fault {
        case .hang:
            held.append(fd)  // never answered; closed at stop()
        case .reset:
            var linger = linger(l_onoff: 1, l_linger: 0)
            setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<linger>.size))
            close(fd)
        case .truncatedChunked:
            write(fd, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "400\r\n{\"data\":[{\"id\":1},")
            close(fd)
        case .gzipBomb:
            let bomb = Gzip.zeros(count: 64 << 20)  // 64 MiB of zeros in about 420 KiB
            write(fd, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\n"
                + "Content-Length: \(bomb.count)\r\nConnection: close\r\n\r\n")
            send(fd, bomb)
            close(fd)
        case .tenMegabytePage:
            let item = "{\"id\":1,\"name\":\"" + String(repeating: "x", count: 1000) + "\"},"
            let body = "{\"data\":[" + String(repeating: item, count: 10_500) + "{\"id\":2}],\"next_cursor\":null}"
            respond(fd, status: "200 OK", body: Array(body.utf8))
        case .invalidUTF8:
            respond(fd, status: "200 OK", body: Array("{\"data\":[{\"id\":1,\"name\":\"".utf8) + [0xFF, 0xC0, 0x80]
                + Array("\"}],\"next_cursor\":null}".utf8))
        case .nonJSONError:
            respond(fd, status: "500 Internal Server Error", body: Array("<html><h1>oops</h1></html>".utf8),
                    type: "text/html")
        }
    }

    private func respond(_ fd: Int32, status: String, body: [UInt8], type: String = "application/json") {
        write(fd, "HTTP/1.1 \(status)\r\nContent-Type: \(type)\r\nContent-Length: \(body.count)\r\n"
            + "Connection: close\r\n\r\n")
        send(fd, body)
        close(fd)
    }

    private func write(_ fd: Int32, _ text: String) { send(fd, Array(text.utf8)) }

    private func send(_ fd: Int32, _ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { return }
            offset += sent
        }
    }
}
