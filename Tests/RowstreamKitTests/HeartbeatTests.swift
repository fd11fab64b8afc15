import HTTPServer
import Locking
import TestSupport
import Testing
@testable import RowstreamKit

/// One timer's `heartbeat` events for every stream of a server: the documented bytes, one per interval per
/// stream, none before the first interval has passed, none on a closed stream.
@Suite struct HeartbeatTests {
    /// A stream writer whose output is collected (text of each write).
    final class Collected: Sendable {
        let writes = Lock<[String]>([])
        var count: Int { writes.withLock { $0.count } }
        var all: [String] { writes.withLock { $0 } }
        func writer() -> StreamWriter {
            StreamWriter { output in
                if case .bytes(let bytes) = output {
                    self.writes.withLock { $0.append(String(decoding: bytes, as: UTF8.self)) }
                }
            }
        }
    }

    @Test func everyStreamGetsTheDocumentedEventEveryInterval() async throws {
        let heartbeats = StreamHeartbeat(commentInterval: .milliseconds(10))
        defer { heartbeats.stop() }
        let streams = (0..<50).map { _ in Collected() }
        let clock = ContinuousClock()
        let started = clock.now
        for stream in streams { heartbeats.start(on: stream.writer()) }
        #expect(await eventually { streams.allSatisfy { $0.count >= 3 } })
        let elapsed = clock.now - started
        for stream in streams {
            #expect(stream.count >= 3)
            #expect(stream.all.allSatisfy { $0 == "event: heartbeat\ndata: {\"interval\":20}\n\n" })
        }
        // Three heartbeats each, one interval apart, the first one interval after the start.
        #expect(elapsed >= .milliseconds(60))
        #expect(heartbeats.streamCount == 50)
    }

    @Test func aStreamGetsNoneBeforeItsFirstInterval() async throws {
        let heartbeats = StreamHeartbeat(commentInterval: .seconds(30))
        defer { heartbeats.stop() }
        let early = Collected(), late = Collected()
        heartbeats.start(on: early.writer())
        let quick = StreamHeartbeat(commentInterval: .milliseconds(5))
        defer { quick.stop() }
        quick.start(on: late.writer())
        #expect(await eventually { late.count >= 2 })
        #expect(late.count >= 2)
        #expect(early.count == 0)
    }

    @Test func aClosedStreamGetsNoMoreAndIsForgotten() async throws {
        let heartbeats = StreamHeartbeat(commentInterval: .milliseconds(5))
        defer { heartbeats.stop() }
        let open = Collected(), closing = Collected()
        let closingWriter = closing.writer()
        heartbeats.start(on: open.writer())
        heartbeats.start(on: closingWriter)
        #expect(await eventually { closing.count >= 1 })
        closingWriter.close()
        // Dropped when it comes due; the timer's ticks run one at a time, so no write to it is in flight after.
        #expect(await eventually { heartbeats.streamCount == 1 })
        #expect(heartbeats.streamCount == 1)
        let sentBeforeClose = closing.count, openBefore = open.count
        #expect(await eventually { open.count >= openBefore + 3 })
        #expect(open.count >= openBefore + 3)
        #expect(closing.count == sentBeforeClose)
    }

    @Test("streams that come and go: closed ones are dropped as new ones start, not an interval later")
    func closedStreamsAreDroppedAsStreamsComeAndGo() {
        // An interval no test run reaches: nothing comes due, so only starting streams can drop closed ones.
        let heartbeats = StreamHeartbeat(commentInterval: .seconds(3_600))
        defer { heartbeats.stop() }
        let first = (0..<1_024).map { _ in StreamWriter { _ in } }
        for writer in first { heartbeats.start(on: writer) }
        #expect(heartbeats.streamCount == 1_024, "all open: none dropped")
        for writer in first.dropFirst(24) { writer.close() }
        let second = (0..<1_023).map { _ in StreamWriter { _ in } }
        for writer in second { heartbeats.start(on: writer) }
        #expect(heartbeats.streamCount == 2_047, "below twice what was left: no pass yet")
        let last = StreamWriter { _ in }
        heartbeats.start(on: last)
        #expect(heartbeats.streamCount == 24 + 1_024, "the 1,000 closed streams are gone")
    }

    @Test func stopEndsEveryStreamsHeartbeats() async throws {
        let heartbeats = StreamHeartbeat(commentInterval: .milliseconds(5))
        let stream = Collected()
        heartbeats.start(on: stream.writer())
        #expect(await eventually { stream.count >= 1 })
        heartbeats.stop()
        let afterStop = stream.count
        // Silence is shown against a control on the same interval that keeps running: by the time it has had five
        // heartbeats, a stream still being served would have had several more. At most one tick that took its
        // streams before `stop()` may still write (the writes happen outside the lock).
        let control = StreamHeartbeat(commentInterval: .milliseconds(5))
        defer { control.stop() }
        let witness = Collected()
        control.start(on: witness.writer())
        #expect(await eventually { witness.count >= 5 })
        #expect(stream.count <= afterStop + 1, "heartbeats went on after stop()")
        let late = Collected()
        heartbeats.start(on: late.writer())
        #expect(await eventually { witness.count >= 10 })
        #expect(late.count == 0, "a stream started after stop() got heartbeats")
        #expect(heartbeats.streamCount == 0)
    }
}
