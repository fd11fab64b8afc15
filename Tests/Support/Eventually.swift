import Foundation

/// Waits until `condition` holds, checking every 10 ms without blocking a thread; returns whether it held. The
/// bound is a generous safety net so no test hangs (30 s: a sanitizer build on a busy machine is slow), never a
/// measurement: tests assert outcomes, not how long they took (scaled by ``TestTime/scale``). `condition` may itself await (read `/metrics` until it
/// counts an event). The one poll every test uses; `eventuallyBlocking` is the same for tests that run on a thread
/// of their own.
public func eventually(timeout: Duration = .seconds(30), _ condition: () async throws -> Bool) async rethrows -> Bool {
    let deadline = ContinuousClock.now + timeout * TestTime.scale
    while try await !condition() {
        guard ContinuousClock.now < deadline else { return try await condition() }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return true
}

/// `eventually` blocking the calling thread: only for tests that run on a thread of their own (`offPool`).
public func eventuallyBlocking(timeout: Duration = .seconds(30), _ condition: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now + timeout * TestTime.scale
    while !condition() {
        guard ContinuousClock.now < deadline else { return condition() }
        usleep(10_000)
    }
    return true
}
