import Dispatch
import Foundation
import Locking
import Testing

/// A plain, unsynchronized object: what a lock hands from thread to thread (a queued closure's captures, a page).
/// Thread rules: written by the thread that made it before it is put under the lock, read after it is taken out.
private final class Parcel: @unchecked Sendable {
    var number = 0
    var text = ""
}

/// Runs `body(index)` on `count` new threads at once; returns when all have returned. Does not block the caller's
/// thread (Swift Testing's pool).
private func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) async {
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        let group = DispatchGroup()
        for index in 0..<count {
            group.enter()
            Thread { body(index); group.leave() }.start()
        }
        group.notify(queue: .global()) { done.resume() }
    }
}

@Suite struct LockTests {
    @Test func theValueIsChangedOnlyUnderTheLockAndEveryChangeIsKept() async {
        let counter = Lock(0)
        await onThreads(4) { _ in
            for _ in 0..<5_000 { counter.withLock { $0 += 1 } }
        }
        #expect(counter.withLock { $0 } == 20_000)
    }

    /// Objects made on one thread and read on another, handed over only through a contended lock, as
    /// `EventLoop.execute` hands closures to its loop. Under ThreadSanitizer (`Scripts/sanitize thread`) this test
    /// is the check that the handover is seen: with the lock's annotations taken out, the run reports a data race
    /// on `Parcel` (docs/HARDENING.md, "Sanitizers").
    @Test func objectsHandedOverThroughAContendedLockArriveWhole() async {
        let perProducer = 5_000
        let queue = Lock([Parcel]())
        let received = Lock([Int]())
        let deadline = Date().addingTimeInterval(60)
        await onThreads(4) { index in
            if index < 2 {
                for step in 0..<perProducer {
                    let parcel = Parcel()
                    parcel.number = index * perProducer + step
                    parcel.text = String(parcel.number)
                    queue.withLock { $0.append(parcel) }
                }
            } else {
                var taken = 0
                while taken < perProducer && Date() < deadline {
                    guard let parcel = queue.withLock({ $0.popLast() }) else { sched_yield(); continue }
                    #expect(parcel.text == String(parcel.number))
                    received.withLock { $0.append(parcel.number) }
                    taken += 1
                }
            }
        }
        #expect(received.withLock { $0.sorted() } == Array(0..<(2 * perProducer)))
    }

    @Test func aBodyMayThrowAndTheLockIsReleased() {
        struct Refused: Error {}
        let lock = Lock("kept")
        #expect(throws: Refused.self) { try lock.withLock { (_: inout String) throws(Refused) in throw Refused() } }
        #expect(lock.withLock { $0 } == "kept")
    }

    /// `Scripts/sanitize` names the sanitizer it built with; under ThreadSanitizer the annotations must be found, or
    /// every contended lock is invisible to it again.
    @Test func theAnnotationsAreFoundExactlyUnderThreadSanitizer() {
        switch ProcessInfo.processInfo.environment["ROWSTREAM_SANITIZER"] {
        case "thread": #expect(ThreadSanitizer.hooks != nil)
        case .some: #expect(ThreadSanitizer.hooks == nil)
        case nil: break  // a plain `swift test`, or a sanitized run started by hand: either may be the case
        }
    }
}
