import CSystem
import EventLoop
import Foundation

/// The server's state on one event loop: its connections, the timeout/heartbeat sweep, and shutdown.
///
/// Thread rules: loop-confined (every method on `loop`), `@unchecked Sendable` so work items can carry it.
final class ServerLoop: @unchecked Sendable {
    let loop: EventLoop
    let context: ServerContext
    private var connections: [ObjectIdentifier: Connection] = [:]
    private var shuttingDown = false
    /// This loop's io_uring for sends (``SendRing``); nil on the `sendmsg` path (turned off, or refused).
    private(set) var sendRing: SendRing?

    init(loop: EventLoop, context: ServerContext) {
        self.loop = loop
        self.context = context
    }

    /// Installs the sweep timer and, when ``HTTPServerConfiguration/ioUring`` is on and the kernel allows it, the
    /// loop's io_uring for sends (else its connections keep `sendmsg`). - Important: loop-confined.
    func startSweeping() {
        loop.assertInLoop()
        if context.configuration.ioUring, case .success(let ring) = SendRing.make(on: loop, entries: context.configuration.ioUringEntries) {
            ring.counters = context.counters
            sendRing = ring
            context.counters.ioUringLoops.add(1, ordering: .relaxed)
        }
        let config = context.configuration
        let shortest = min(config.heartbeatInterval, config.idleTimeout, config.requestHeadTimeout,
                           config.responseTimeout, .seconds(1))
        loop.addRepeatingTimer(every: max(shortest / 2, .milliseconds(10))) { [self] in sweep() }
    }

    /// Takes ownership of an accepted fd. - Important: loop-confined.
    /// `address` was admitted by `context.admission`; it is released when the connection closes.
    func adopt(_ fd: Int32, address: UInt32) {
        loop.assertInLoop()
        context.counters.totalConnections.add(1, ordering: .relaxed)
        guard !shuttingDown else {
            Glibc.close(fd)
            context.admission.release(address)
            return
        }
        // TCP_NODELAY comes from the listening socket (``ListeningSocket``).
        if var size = context.configuration.sendBufferBytes {
            _ = setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        let connection = Connection(fd: fd, address: address, owner: self)
        do {
            try loop.register(fd, connection, events: csystem_EPOLLIN)
        } catch {
            Glibc.close(fd)
            context.admission.release(address)
            return
        }
        connection.watchedEvents = csystem_EPOLLIN
        connections[ObjectIdentifier(connection)] = connection
        context.counters.openConnections.add(1, ordering: .relaxed)
    }

    /// Forgets a closed connection. - Important: loop-confined.
    func remove(_ connection: Connection) {
        loop.assertInLoop()
        guard connections.removeValue(forKey: ObjectIdentifier(connection)) != nil else { return }
        context.counters.openConnections.add(-1, ordering: .relaxed)
        stopIfDrained()
    }

    /// Starts a graceful shutdown (a drain): event streams get their reconnect hint and finish, idle connections
    /// close, in-flight responses complete (with `Connection: close`); the loop stops when no connection is left.
    /// - Important: loop-confined.
    func beginShutdown() {
        loop.assertInLoop()
        shuttingDown = true
        for connection in Array(connections.values) {
            connection.shuttingDown = true
            connection.drainStream()
            if connection.isIdle, connection.output.count == 0 {
                connection.close()
            } else {
                connection.closeWhenFlushed = connection.closeWhenFlushed || connection.isIdle
                connection.settle()
            }
        }
        stopIfDrained()
    }

    /// Closes every connection and stops the loop (grace time over). - Important: loop-confined.
    func forceClose() {
        loop.assertInLoop()
        shuttingDown = true
        for connection in Array(connections.values) { connection.close() }
        loop.stop()
    }

    private func stopIfDrained() {
        if shuttingDown, connections.isEmpty { loop.stop() }
    }

    /// The most unparsed request bytes any connection of this loop holds now (for tests). - Important: loop-confined.
    var largestBufferedInput: Int {
        connections.values.lazy.map(\.parser.bufferedByteCount).max() ?? 0
    }

    /// The heartbeat comment, one array shared by every stream's write buffer.
    private static let ping = Array(": ping\n\n".utf8)
    /// The heartbeat compressed once, for every gzip-coded stream.
    private static let deflatedPing = DeflatedBlock(compressing: ping)

    /// What is due for a connection in `state` (a stream's heartbeat, a pending answer's timeout) and whether it is
    /// idle: read binding no payload, so the sweep need not copy the state (a retain and release of its writer or
    /// task, each connection, each tick).
    private static func due(_ state: Connection.State, now: ContinuousClock.Instant)
        -> (heartbeat: Bool, answer: Bool, idle: Bool) {
        switch state {
        case .streaming(_, let due?): (due <= now, false, false)
        case .waiting(let pending): (false, pending.deadline <= now, false)
        case .idle: (false, false, true)
        case .streaming, .closed: (false, false, false)
        }
    }

    /// Heartbeats for event streams; idle, request-head and stalled-write timeouts.
    /// Every connection, every tick: its state is read once (binding no payload), not once per check; a read that
    /// copies the state retains and releases its writer or task, which with 10,000 streams was most of a sweep.
    private func sweep() {
        let now = ContinuousClock.now
        let config = context.configuration
        context.freedMemory?.observe(openConnections: context.counters.openConnections.load(ordering: .relaxed))
        for connection in Array(connections.values) {
            let (heartbeatDue, answerDue, idle) = Self.due(connection.state, now: now)
            if heartbeatDue {
                if case .streaming(let writer, _) = connection.state {
                    connection.state = .streaming(writer, heartbeatDue: now + config.heartbeatInterval)
                }
                connection.writeShared(Self.ping, deflated: Self.deflatedPing)
                continue
            }
            if answerDue {
                connection.timeOutResponse()
            } else if let until = connection.lingerUntil, until <= now {
                connection.close()
            } else if connection.output.count > 0, !connection.sendInFlight,
                      now - connection.lastWriteProgress > config.idleTimeout {
                connection.close()
            } else if idle, !connection.closeWhenFlushed, connection.output.count == 0,
                      let started = connection.requestStartedAt, now - started > config.requestHeadTimeout {
                // Only while nothing of ours waits to be written: a pipelined request held back until its
                // predecessors' answers drain (a large file to a slow reader) is not late.
                connection.timeOutRequest()
            } else if idle, connection.output.count == 0, connection.parser.bufferedByteCount == 0,
                      now - connection.idleSince > config.idleTimeout {
                connection.close()
            }
        }
    }
}
