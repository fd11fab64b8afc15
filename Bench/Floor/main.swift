// The loopback floor for Scripts/bench fanout: what the kernel's TCP alone costs per delivered event, in the same
// run as the fan-out. N socket pairs over 127.0.0.1; every tick (--hz a second, for --seconds) the writer writes the
// same --bytes to each of its N sockets, and a reader process (pinned apart by the caller) reads them all. The
// writer's CPU (user + system, getrusage) per event written is the floor a server's CPU per event can approach: no
// HTTP, no event loop, no queue. Two writers in turn on the same sockets: one `send` per socket (`send`), and every
// tick's sends submitted through io_uring in one batch (`uring`). Prints one JSON line.
// Usage: rowstream-bench-floor [--viewers N] [--seconds S] [--hz N] [--bytes N] [--reader-cpu N]
//        rowstream-bench-floor --read PORT N       (the reader: connects N sockets, reads until each closes)
// Thread rules: single-threaded (each process).
import CSystem
import CURing
import Foundation
import Glibc

func option(_ name: String, default value: Int) -> Int {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count,
          let number = Int(arguments[index + 1]), number >= 0 else { return value }
    return number
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("rowstream-bench-floor: \(message) (errno \(errno))\n".utf8))
    exit(1)
}

/// CPU seconds (user + system) this process has used.
func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
        + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1_000_000
}

func loopbackAddress(port: UInt16) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
    return address
}

/// The reader: connects `count` sockets to `port`, then reads (epoll) until every one is closed by the writer.
func read(port: UInt16, count: Int) -> Never {
    let epoll = csystem_epoll_create()
    var address = loopbackAddress(port: port)
    for _ in 0..<count {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard fd >= 0, connected == 0 else { fail("connect") }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        _ = csystem_epoll_ctl(epoll, csystem_EPOLL_CTL_ADD, fd, csystem_EPOLLIN)
    }
    var open = count
    var fds = [Int32](repeating: 0, count: 256)
    var events = [UInt32](repeating: 0, count: 256)
    var buffer = [UInt8](repeating: 0, count: 256 * 1024)
    while open > 0 {
        let ready = csystem_epoll_wait(epoll, &fds, &events, 256, 30_000)
        guard ready > 0 else { fail("the reader waited 30 s for bytes") }
        for slot in 0..<Int(ready) {
            while true {
                let received = buffer.withUnsafeMutableBytes { recv(fds[slot], $0.baseAddress, $0.count, 0) }
                if received > 0 { continue }
                if received == 0 || (errno != EAGAIN && errno != EINTR) { close(fds[slot]); open -= 1 }
                break
            }
        }
    }
    exit(0)
}

/// Writes `bytes` whole to a blocking socket.
func sendAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, from offset: Int = 0) {
    var sent = offset
    while sent < bytes.count {
        let count = send(fd, bytes.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL))
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else { fail("send") }
        sent += count
    }
}

if CommandLine.arguments.count >= 4, CommandLine.arguments[1] == "--read" {
    guard let port = UInt16(CommandLine.arguments[2]), let count = Int(CommandLine.arguments[3]) else { fail("usage") }
    read(port: port, count: count)
}

let viewers = option("--viewers", default: 1_000)
let seconds = option("--seconds", default: 5)
let hz = max(1, option("--hz", default: 20))
let size = max(1, option("--bytes", default: 2_350))
let readerCPU = option("--reader-cpu", default: 1)

// Listen, start the reader, accept its connections (blocking: the reader keeps up, so a send never waits long).
let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
var address = loopbackAddress(port: 0)
var length = socklen_t(MemoryLayout<sockaddr_in>.size)
let bound = withUnsafeMutablePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
        bind(listener, pointer, length) == 0 && listen(listener, 4096) == 0
            && getsockname(listener, pointer, &length) == 0
    }
}
guard listener >= 0, bound else { fail("listen") }
let reader = Process()
reader.executableURL = URL(fileURLWithPath: "/usr/bin/taskset")
reader.arguments = ["-c", "\(readerCPU)", CommandLine.arguments[0], "--read", "\(UInt16(bigEndian: address.sin_port))",
                    "\(viewers)"]
try reader.run()
var accepted: [Int32] = []
for _ in 0..<viewers {
    let fd = accept(listener, nil, nil)
    guard fd >= 0 else { fail("accept") }
    var one: Int32 = 1
    setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    accepted.append(fd)
}
let sockets = accepted

let event = [UInt8](repeating: UInt8(ascii: "x"), count: size)
let ticks = seconds * hz
var error: Int32 = 0
guard let ring = curing_create(4096, &error) else { fail("io_uring_queue_init: \(error)") }

/// One window of `ticks` ticks, each writing the event to every socket by `write`; returns CPU µs per event.
func window(_ write: () -> Void) -> Double {
    let interval = 1.0 / Double(hz)
    let start = Date()
    let cpuStart = cpuSeconds()
    for tick in 0..<ticks {
        write()
        let next = start.addingTimeInterval(Double(tick + 1) * interval)
        let wait = next.timeIntervalSinceNow
        if wait > 0 { usleep(useconds_t(wait * 1_000_000)) }
    }
    return (cpuSeconds() - cpuStart) * 1_000_000 / Double(ticks * viewers)
}

let sendCost = window {
    event.withUnsafeBytes { bytes in for fd in sockets { sendAll(fd, bytes) } }
}
usleep(500_000)   // let the reader drain
let uringCost = window {
    event.withUnsafeBytes { bytes in
        var results = [Int32](repeating: 0, count: 256)
        var tags = [UInt64](repeating: 0, count: 256)
        var pending = 0
        func reap() {
            while pending > 0 {
                let count = Int(curing_reap(ring, &tags, &results, 256))
                if count == 0 { _ = curing_wait(ring, 1_000); continue }
                for index in 0..<count {
                    // A partial or refused send (a full socket) finishes with a blocking send.
                    let sent = max(0, Int(results[index]))
                    if sent < bytes.count { sendAll(sockets[Int(tags[index])], bytes, from: sent) }
                }
                pending -= count
            }
        }
        for (index, fd) in sockets.enumerated() {
            if curing_prepare_send(ring, fd, bytes.baseAddress, UInt32(bytes.count), UInt64(index)) != 0 {
                _ = curing_submit(ring)
                reap()
                _ = curing_prepare_send(ring, fd, bytes.baseAddress, UInt32(bytes.count), UInt64(index))
            }
            pending += 1
        }
        _ = curing_submit(ring)
        reap()
    }
}
for fd in sockets { close(fd) }
reader.waitUntilExit()
curing_destroy(ring)
print("{\"viewers\":\(viewers),\"event_bytes\":\(size),\"events\":\(ticks * viewers),"
      + "\"send_cpu_us_per_event\":\((sendCost * 1000).rounded() / 1000),"
      + "\"uring_cpu_us_per_event\":\((uringCost * 1000).rounded() / 1000)}")
