import CSystem
import Dispatch
import Foundation
import Synchronization

/// One thread running `epoll_wait` over non-blocking fds, plus repeating timers (the `epoll_wait` timeout,
/// ``RepeatingTimers``) and a work queue other threads feed through `execute` (``WakeableQueue``: a locked queue and
/// an eventfd wake-up).
///
/// `package`: the HTTP server's connections (Sources/HTTPServer) and the Redis client's (Sources/Redis) run on these.
///
/// Thread rules: `execute`, `run`, `inEventLoop`, `assertInLoop` and `waitForExit` are thread-safe. Every other
/// method, and every handler, timer and work item, runs on the loop thread only ("loop-confined", checked by
/// `assertInLoop()` in a debug build); that is why the class is `@unchecked Sendable`: its mutable state is touched by
/// one thread.
package final class EventLoop: @unchecked Sendable {
    package let index: Int
    private let threadName: String
    private let epollFD: Int32
    let queue: WakeableQueue  // thread-safe; the TaskExecutor extension submits jobs
    private let threadID = Atomic<UInt>(0)
    private let exited = DispatchSemaphore(value: 0)

    // Loop-confined.
    private var handlers: [Int32: any EventHandler] = [:]
    private var timers = RepeatingTimers()
    private var running = true
    /// Run at the end of every iteration, after handlers, work items and timers, before the next `epoll_wait`.
    private var iterationEndHooks: [() -> Void] = []
    /// Whether this iteration's wait reported as many descriptors as it takes (256): then others may be ready that
    /// it did not report; else every ready one was reported (and handled) this iteration. - Important: loop-confined.
    package private(set) var lastWaitFilled = false
    /// Set by ``pauseBeforeNextWait(_:)`` for the next wait only.
    private var pendingPause: Duration?
    /// How the loop pauses (``pauseBeforeNextWait(_:)``): `nanosleep` on the loop thread. Replaced by tests, and by
    /// HTTPServer to count the pauses. - Important: loop-confined.
    package var pause: (Duration) -> Void = EventLoop.sleep
    /// Run once when the loop has stopped, before its handlers are let go.
    private var exitHooks: [() -> Void] = []
    /// A reusable read buffer shared by this loop's connections.
    package var readBuffer = [UInt8](repeating: 0, count: 64 * 1024)

    /// Creates the epoll and eventfd descriptors; the thread starts with `start()`, named `name` (default
    /// `rowstream-loop-<index>`).
    package init(index: Int, name: String? = nil) throws(EventLoopError) {
        self.index = index
        threadName = name ?? "rowstream-loop-\(index)"
        epollFD = csystem_epoll_create()
        guard epollFD >= 0 else { throw .system("epoll_create1") }
        do {
            queue = try WakeableQueue()
        } catch {
            Glibc.close(epollFD)
            throw error
        }
        guard csystem_epoll_ctl(epollFD, csystem_EPOLL_CTL_ADD, queue.wakeFD, csystem_EPOLLIN) == 0 else {
            let error = EventLoopError.system("epoll_ctl")
            Glibc.close(epollFD)
            throw error
        }
    }

    deinit {
        Glibc.close(epollFD)
    }

    /// Starts the loop thread. Call once.
    package func start() {
        let thread = Thread { [self] in
            threadID.store(UInt(pthread_self()), ordering: .releasing)
            run()
            exited.signal()
        }
        thread.name = threadName
        thread.start()
    }

    /// Whether the caller is on this loop's thread. Thread-safe.
    package var inEventLoop: Bool { threadID.load(ordering: .acquiring) == UInt(pthread_self()) }

    /// Checks a "loop-confined" thread rule: traps when the caller is not on this loop's thread (the thread `start()`
    /// records). An `assert`, so a debug build checks and a release build compiles it out. Thread-safe.
    package func assertInLoop(file: StaticString = #fileID, line: UInt = #line) {
        assert(inEventLoop, "called off \(threadName)'s thread, which its thread rule forbids", file: file, line: line)
    }

    /// Runs `work` on the loop thread, in submission order. Thread-safe. Dropped after the loop stopped.
    package func execute(_ work: @escaping @Sendable () -> Void) {
        queue.submit(work)
    }

    /// Runs `work` now when called on the loop thread, else as `execute` does. Thread-safe.
    package func run(_ work: @escaping @Sendable () -> Void) {
        if inEventLoop { work() } else { execute(work) }
    }

    /// Waits until the loop thread has exited, at most until `deadline`. Thread-safe; returns whether it exited.
    package func waitForExit(until deadline: DispatchTime) -> Bool {
        guard exited.wait(timeout: deadline) == .success else { return false }
        exited.signal()  // keep the semaphore signalled for later callers
        return true
    }

    /// Registers `handler` for `events` on `fd`. - Important: loop-confined.
    package func register(_ fd: Int32, _ handler: any EventHandler, events: UInt32) throws(EventLoopError) {
        assertInLoop()
        guard csystem_epoll_ctl(epollFD, csystem_EPOLL_CTL_ADD, fd, events) == 0 else {
            throw .system("epoll_ctl(ADD)")
        }
        handlers[fd] = handler
    }

    /// Changes the events watched on `fd`. - Important: loop-confined.
    package func modify(_ fd: Int32, events: UInt32) {
        assertInLoop()
        _ = csystem_epoll_ctl(epollFD, csystem_EPOLL_CTL_MOD, fd, events)
    }

    /// Stops watching `fd` (call before closing it). - Important: loop-confined.
    package func deregister(_ fd: Int32) {
        assertInLoop()
        _ = csystem_epoll_ctl(epollFD, csystem_EPOLL_CTL_DEL, fd, 0)
        handlers[fd] = nil
    }

    /// Forgets `fd`'s handler without an `epoll_ctl`: for an fd about to be closed that was never duplicated
    /// (an accepted socket), which the kernel takes out of the epoll set when it is closed (as nginx does on close).
    /// An event already returned for it this round finds no handler. - Important: loop-confined.
    package func forget(_ fd: Int32) {
        assertInLoop()
        handlers[fd] = nil
    }

    /// Calls `body` every `interval`, first after one interval. - Important: loop-confined.
    package func addRepeatingTimer(every interval: Duration, _ body: @escaping () -> Void) {
        assertInLoop()
        timers.add(every: interval, body)
    }

    /// Calls `body` at the end of every iteration, before the loop waits again: for work batched during the
    /// iteration (HTTPServer's end-of-pass flush sends each connection's writes of the pass here, in one send each,
    /// and submits its io_uring entries in one system call). An iteration runs the work items queued before it
    /// began (later ones wait for the next), so a stream of work items never keeps these hooks from running.
    /// - Important: loop-confined.
    package func addIterationEndHook(_ body: @escaping () -> Void) {
        assertInLoop()
        iterationEndHooks.append(body)
    }

    /// Puts off the next wait by `pause` if nothing is ready by then, so what arrives meanwhile is taken in one
    /// iteration: the loop first polls without blocking, and only if no descriptor (the work queue's wake-up included)
    /// is ready does it sleep for `pause` (``pause``) and then wait as usual. A loop with work ready never sleeps. For
    /// the next wait only: later ones are not put off unless asked again (HTTPServer's loop 0 asks after every
    /// iteration while connections arrive as a storm, ``HTTPServerConfiguration/arrivalPause``). A timer due already
    /// means no pause, and the pause ends by the next timer's time (within the millisecond `epoll_wait` counts in).
    /// - Important: loop-confined.
    package func pauseBeforeNextWait(_ pause: Duration) {
        assertInLoop()
        pendingPause = max(pendingPause ?? .zero, pause)
    }

    /// Sleeps the calling thread for `duration` (`nanosleep`; a signal cuts it short). Thread-safe.
    package static func sleep(_ duration: Duration) {
        let nanoseconds = max(0, duration.wholeNanoseconds)
        var span = timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
        _ = nanosleep(&span, nil)
    }

    /// Runs the work items queued so far, now, within the current iteration, and returns how many ran: for an
    /// iteration-end hook whose batch work arriving meanwhile should join (HTTPServer's end-of-pass flush lets a
    /// broadcast that arrives while it sends share the sends not yet made). Items queued while these run wait for the
    /// next call or iteration. - Important: loop-confined.
    @discardableResult
    package func runQueuedWork() -> Int {
        assertInLoop()
        let (work, jobs) = queue.take()
        for item in work { item() }
        runJobs(jobs)
        return work.count + jobs.count
    }

    /// Calls `body` once on the loop thread when the loop has stopped, before its handlers are let go: for
    /// operations still in flight in the kernel (SendRing drains its ring here). - Important: loop-confined.
    package func addExitHook(_ body: @escaping () -> Void) {
        assertInLoop()
        exitHooks.append(body)
    }

    /// Makes the loop return after the current iteration. - Important: loop-confined.
    package func stop() {
        assertInLoop()
        running = false
    }

    private func run() {
        var fds = [Int32](repeating: 0, count: 256)
        var events = [UInt32](repeating: 0, count: 256)
        while running {
            var count: Int32
            if let pause = pendingPause {
                pendingPause = nil
                count = csystem_epoll_wait(epollFD, &fds, &events, 256, 0)
                // Nothing ready and no timer due: sleep, at most until the next timer is.
                let untilTimer = timers.timeoutMilliseconds()
                if count == 0, untilTimer != 0 {
                    self.pause(untilTimer < 0 ? pause : min(pause, .milliseconds(untilTimer)))
                    count = csystem_epoll_wait(epollFD, &fds, &events, 256, timers.timeoutMilliseconds())
                }
            } else {
                count = csystem_epoll_wait(epollFD, &fds, &events, 256, timers.timeoutMilliseconds())
            }
            if count < 0 && errno != EINTR { break }
            lastWaitFilled = Int(count) == fds.count
            for slot in 0..<max(0, Int(count)) {
                if fds[slot] == queue.wakeFD {
                    queue.drainWakeUp()
                } else {
                    handlers[fds[slot]]?.handleEvents(events[slot])
                }
            }
            let (work, jobs) = queue.take()
            for item in work { item() }
            runJobs(jobs)
            for body in timers.takeDue() { body() }
            for body in iterationEndHooks { body() }
        }
        for body in exitHooks { body() }
        exitHooks = []
        iterationEndHooks = []
        pause = EventLoop.sleep  // what the pause held (a test's recorder, a server's counters) is let go
        // Jobs of tasks that preferred this loop and were queued as it stopped still run (on the global executor
        // from now on): a task never resumed would stay suspended, holding what it holds, forever.
        for job in queue.close() { globalConcurrentExecutor.enqueue(ExecutorJob(job)) }
        handlers = [:]
        timers.removeAll()
    }
}
