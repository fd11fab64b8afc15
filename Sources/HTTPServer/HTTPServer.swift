import CSystem
import Dispatch
import EventLoop
import Foundation
import Locking

/// An HTTP/1.1 server on epoll event loops.
///
/// Lifecycle (an explicit `State`): `initial` -> `start()` -> `running` -> `shutdown()` -> `shuttingDown` -> `shutdown`.
/// Thread-safe: every method may be called from any thread (not from one of its own loops for `shutdown`
/// and `waitUntilShutdown`, which block).
public final class HTTPServer: Sendable {
    private enum State {
        case initial
        case running(loops: [ServerLoop], listener: Listener)
        case shuttingDown
        case shutdown
    }

    private let context: ServerContext
    private let state = Lock(State.initial)
    private let finished = DispatchSemaphore(value: 0)

    public init(configuration: HTTPServerConfiguration, responder: any HTTPResponder) {
        context = ServerContext(responder: responder, configuration: configuration)
    }

    /// Binds, listens and starts the loops; returns the bound port. Throws `HTTPServerError` naming the
    /// failing call and errno text; throws when not in the initial state.
    public func start() throws -> Int {
        // Start-up is short (socket, epoll fds, threads) and runs under the state lock, so a concurrent
        // `shutdown()` waits for it and then sees `running`.
        try state.withLock { state throws(HTTPServerError) -> Int in
            guard case .initial = state else {
                throw HTTPServerError(call: "start", errnoCode: 0, detail: "server already started")
            }
            do throws(HTTPServerError) {
                let (loops, listener, port) = try startLoops()
                state = .running(loops: loops, listener: listener)
                return port
            } catch {
                state = .shutdown
                finished.signal()
                throw error
            }
        }
    }

    private func startLoops() throws(HTTPServerError) -> ([ServerLoop], Listener, Int) {
        let config = context.configuration
        signal(SIGPIPE, SIG_IGN)
        let (fd, port) = try ListeningSocket.open(host: config.host, port: config.port,
                                                       reusePort: config.reusePort)
        if let timeout = config.deadPeerTimeout { DeadPeerDetection.prepareListener(fd, timeout: timeout) }
        if let limit = DescriptorTable.openFileLimit() {
            DescriptorTable.reserve(DescriptorTable.slots(maxConnections: config.maxConnections, openFileLimit: limit),
                                    duplicating: fd)
        }
        var loops: [ServerLoop] = []
        for index in 0..<max(1, config.eventLoopCount) {
            do throws(EventLoopError) {
                loops.append(ServerLoop(loop: try EventLoop(index: index), context: context))
            } catch {
                Glibc.close(fd)
                throw HTTPServerError(call: error.call, errnoCode: error.errnoCode)
            }
        }
        let listener = Listener(fd: fd, loops: loops, arrivals: config.arrivalRate)
        for serverLoop in loops {
            serverLoop.loop.start()
            serverLoop.loop.execute { serverLoop.startSweeping() }
        }
        let first = loops[0]
        first.loop.execute {
            do { try first.loop.register(fd, listener, events: csystem_EPOLLIN) } catch { listener.close() }
            // Only after a wait that filled its 256 slots: after any other, the listener was reported if it was ready.
            first.loop.addIterationEndHook { if first.loop.lastWaitFilled { listener.drainEachPass() } }
            listener.pauseLoopDuringStorms()
            first.drainArrivals = { [weak listener] in listener?.drainEachPass() ?? false }
        }
        return (loops, listener, port)
    }

    /// A snapshot of the counters. Thread-safe.
    public var statistics: HTTPServerStatistics { context.counters.snapshot }

    /// The most unparsed request bytes any open connection holds now (package-visible, for tests). Blocks until each
    /// loop has answered: do not call it on a loop.
    func largestBufferedInput() -> Int { onEveryLoop { $0.largestBufferedInput }.max() ?? 0 }

    /// How many open connections hold a request parser now (package-visible, for tests; an open stream holds none).
    /// Blocks until each loop has answered: do not call it on a loop.
    func requestReadersHeld() -> Int { onEveryLoop { $0.requestReadersHeld }.reduce(0, +) }

    /// `read` of every running loop, each read on its own loop. Blocks until each has answered.
    private func onEveryLoop(_ read: @escaping @Sendable (ServerLoop) -> Int) -> [Int] {
        let loops = state.withLock { state -> [ServerLoop] in
            if case .running(let loops, _) = state { loops } else { [] }
        }
        let values = Lock<[Int]>([])
        let answered = DispatchGroup()
        for serverLoop in loops {
            answered.enter()
            serverLoop.loop.execute {
                let value = read(serverLoop)
                values.withLock { $0.append(value) }
                answered.leave()
            }
        }
        answered.wait()
        return values.withLock { $0 }
    }

    /// Drains and stops: closes the listener at once (new connections are refused, so a load balancer sends them
    /// elsewhere), writes each open event stream a random `retry:` within `drainWindow` and finishes it, closes
    /// idle connections, lets in-flight responses finish, and returns once every loop thread has exited - at most
    /// about `shutdownGrace` (then everything left is closed). Idempotent; a concurrent call waits for the first
    /// to complete.
    public func shutdown() {
        let running = state.withLock { state -> (loops: [ServerLoop], listener: Listener)? in
            switch state {
            case .initial:
                state = .shutdown
                finished.signal()
                return nil
            case .running(let loops, let listener):
                state = .shuttingDown
                return (loops, listener)
            case .shuttingDown, .shutdown:
                return nil
            }
        }
        guard let (loops, listener) = running else { return waitUntilShutdown() }
        loops[0].loop.execute { listener.close() }
        for serverLoop in loops { serverLoop.loop.execute { serverLoop.beginShutdown() } }
        let deadline = DispatchTime.now() + .nanoseconds(Int(context.configuration.shutdownGrace.wholeNanoseconds))
        for serverLoop in loops where !serverLoop.loop.waitForExit(until: deadline) {
            serverLoop.loop.execute { serverLoop.forceClose() }
            _ = serverLoop.loop.waitForExit(until: .now() + .seconds(2))
        }
        state.withLock { $0 = .shutdown }
        finished.signal()
    }

    /// Blocks until `shutdown()` has completed (returns at once if it has).
    public func waitUntilShutdown() {
        finished.wait()
        finished.signal()
    }

}
