import CSystem
import EventLoop
import Foundation

/// The server's state on one event loop: its connections, the timeout/heartbeat sweep, and shutdown.
///
/// Thread rules: loop-confined (every method on `loop`), `@unchecked Sendable` so work items can carry it.
/// Its lists and its head cache are `@exclusivity(unchecked)`, as ``Connection``'s state is: read and changed on the
/// loop's thread only, each list access whole (the sweep and the flush read an element, then call out), and the cache
/// changed in place only around ``ResponseHead/encode``, which calls nothing back.
final class ServerLoop: @unchecked Sendable {
    let loop: EventLoop
    let context: ServerContext
    /// Every open connection, each at its `slot` (removal moves the last one into the gap): adopting and forgetting
    /// one hashes nothing, and the sweep walks the list without copying it.
    @exclusivity(unchecked) private var connections: [Connection] = []
    @exclusivity(unchecked) private var shuttingDown = false
    /// This loop's io_uring for sends (``SendRing``); nil on the `sendmsg` path (turned off, or refused).
    private(set) var sendRing: SendRing?
    /// Connections written this pass, to send at its end (``flushAtEndOfPass(_:)``), and the list being flushed.
    @exclusivity(unchecked) private var toFlush: [Connection] = []
    @exclusivity(unchecked) private var flushing: [Connection] = []
    /// Loop 0's listener drain (``Listener/drainEachPass()``, true while connections are arriving), run between the
    /// end-of-pass flush's chunks too: a flush of thousands of first batches (a storm's waiters, when their page lands)
    /// takes tens of milliseconds, in which arriving connections would fill the backlog. Nil on the other loops.
    var drainArrivals: (() -> Bool)?
    /// The last stream response head this loop encoded, shared by the streams that get the same one.
    @exclusivity(unchecked) var streamHeads = StreamHeadCache()

    init(loop: EventLoop, context: ServerContext) {
        self.loop = loop
        self.context = context
    }

    /// Installs the sweep timer and, when ``HTTPServerConfiguration/ioUring`` is on and the kernel allows it, the
    /// loop's io_uring for sends (else its connections keep `sendmsg`). - Important: loop-confined.
    func startSweeping() {
        loop.assertInLoop()
        ArenaReserve.reserve()  // this loop thread's malloc heap, grown once (no mprotect per page in a storm)
        loop.addIterationEndHook { [self] in flushPass() }
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

    /// Queues `connection` for the end of this pass: its writes of the pass then leave in one send.
    ///
    /// Thread rules (the end-of-pass flush): everything here is loop-confined. A pass runs the epoll events, then the
    /// work items queued before it began, then timers, then this flush, every pass, before the loop waits again
    /// (``flushPass()`` runs work arriving meanwhile too, bounded, so jobs cannot starve it). So a write waits at
    /// most for the rest of the pass it was made in: no timer, no added wait. A connection's bytes stay in order: one queue
    /// per connection, one send in flight at most. - Important: loop-confined.
    func flushAtEndOfPass(_ connection: Connection) {
        loop.assertInLoop()
        guard !connection.flushQueued else { return }
        connection.flushQueued = true
        toFlush.append(connection)
    }

    /// The end-of-pass flush: one send per connection written this pass (io_uring entries submitted together, their
    /// completions reaped). Work that arrived since the pass took its work items runs first (with the work it hands
    /// the loop in turn, up to 8 batches: a job that broadcasts and queues the next broadcast gets both into one send
    /// whether it ran in the pass or here), and again every `workPollInterval` connections: a broadcast handed to the
    /// loop while it sends joins the sends not yet made (a
    /// viewer not yet flushed gets both events in one send; one already flushed gets a send in the next round), instead
    /// of waiting for the next pass and a send of its own per viewer. On loop 0, while connections arrive, each of those
    /// points also drains the listener and submits the sends prepared so far (``drainArrivals``). Writes made while it
    /// runs are flushed in up to 8 rounds; past them (work that keeps writing), the loop is woken so the next pass
    /// flushes them at once.
    private func flushPass() {
        for _ in 0..<8 {
            var batches = 0
            while loop.runQueuedWork() > 0, batches < 8 { batches += 1 }
            swap(&toFlush, &flushing)
            for (index, connection) in flushing.enumerated() {
                if index % Self.workPollInterval == Self.workPollInterval - 1 {
                    loop.runQueuedWork()
                    // While connections arrive, the backlog is drained between chunks, and the sends prepared so far
                    // leave now (the kernel's part of a chunk of sends is long too).
                    if let drainArrivals, drainArrivals() { sendRing?.submitAndReap() }
                }
                connection.flushQueued = false
                connection.flushAtEndOfPass()
            }
            flushing.removeAll(keepingCapacity: true)
            sendRing?.submitAndReap()
            if toFlush.isEmpty { return }
        }
        loop.execute {}  // writes are left: the next pass must not wait in epoll for them
    }

    /// How many connections the end-of-pass flush sends to between looks at the loop's work queue (a look is one lock).
    static let workPollInterval = 256

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
        connection.slot = connections.count
        connections.append(connection)
        context.counters.openConnections.add(1, ordering: .relaxed)
    }

    /// Forgets a closed connection. - Important: loop-confined.
    func remove(_ connection: Connection) {
        loop.assertInLoop()
        let slot = connection.slot
        guard slot >= 0, slot < connections.count, connections[slot] === connection else { return }
        let last = connections.removeLast()
        if last !== connection {
            connections[slot] = last
            last.slot = slot
        }
        connection.slot = -1
        context.counters.openConnections.add(-1, ordering: .relaxed)
        stopIfDrained()
    }

    /// Starts a graceful shutdown (a drain): event streams get their reconnect hint and finish, idle connections
    /// close, in-flight responses complete (with `Connection: close`); the loop stops when no connection is left.
    /// - Important: loop-confined.
    func beginShutdown() {
        loop.assertInLoop()
        shuttingDown = true
        for connection in connections {
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
        for connection in connections { connection.close() }
        loop.stop()
    }

    private func stopIfDrained() {
        if shuttingDown, connections.isEmpty { loop.stop() }
    }

    /// The most unparsed request bytes any connection of this loop holds now (for tests). - Important: loop-confined.
    var largestBufferedInput: Int {
        connections.lazy.map(\.bufferedInput).max() ?? 0
    }

    /// How many of this loop's connections hold a request parser (for tests). - Important: loop-confined.
    var requestReadersHeld: Int { connections.count { $0.requests != nil } }

    /// The heartbeat comment, one array shared by every stream's write buffer.
    private static let ping = Array(": ping\n\n".utf8)
    /// The heartbeat compressed once, for every gzip-coded stream.
    private static let deflatedPing = DeflatedBlock(compressing: ping)

    /// What is due for a connection of `timing` (a stream's heartbeat, a pending answer's timeout) and whether it
    /// is idle. `Connection.timing` has no payload, so the sweep copies no state (reading `state` retained and
    /// released its writer or task, each connection, each tick).
    private static func due(_ timing: Connection.Timing, now: MonotonicInstant)
        -> (heartbeat: Bool, answer: Bool, idle: Bool) {
        switch timing {
        case .streaming(let due?): (due <= now, false, false)
        case .waiting(let deadline): (false, deadline <= now, false)
        case .idle: (false, false, true)
        case .streaming, .closed: (false, false, false)
        }
    }

    /// Heartbeats for event streams; idle, request-head and stalled-write timeouts.
    /// Every connection, every tick: its `timing` is read once, not its state (a read that copies the state retains
    /// and releases its writer or task, which with 10,000 streams was most of a sweep). The list is walked from its
    /// end without a copy: a connection closed here moves the last one, already seen, into its slot.
    private func sweep() {
        let now = MonotonicInstant.now
        let config = context.configuration
        context.freedMemory?.observe(openConnections: context.counters.openConnections.load(ordering: .relaxed))
        var index = connections.count
        while index > 0 {
            index -= 1
            guard index < connections.count else { continue }
            let connection = connections[index]
            let (heartbeatDue, answerDue, idle) = Self.due(connection.timing, now: now)
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
            } else if idle, connection.output.count == 0, connection.bufferedInput == 0,
                      now - connection.idleSince > config.idleTimeout {
                connection.close()
            }
        }
    }
}
