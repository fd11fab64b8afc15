import HTTPServer
import Synchronization
import Testing
@testable import RowstreamKit

/// One timer's `heartbeat` events for every stream of a server: the documented bytes, one per interval per
/// stream, none before the first interval has passed, none on a closed stream.
@Suite struct HeartbeatTests {
    /// A stream writer whose output is collected (text of each write).
    final class Collected: Sendable {
        let writes = Mutex<[String]>([])
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

    /// Polls (without blocking a thread) until `done`, at most `limit`.
    static func wait(upTo limit: Duration = .seconds(10), until done: () -> Bool) async throws {
        let clock = ContinuousClock()
        let end = clock.now + limit
        while !done(), clock.now < end { try await Task.sleep(for: .milliseconds(5)) }
    }

    @Test func everyStreamGetsTheDocumentedEventEveryInterval() async throws {
        let heartbeats = StreamHeartbeat(commentInterval: .milliseconds(10))
        defer { heartbeats.stop() }
        let streams = (0..<50).map { _ in Collected() }
        let clock = ContinuousClock()
        let started = clock.now
        for stream in streams { heartbeats.start(on: stream.writer()) }
        try await Self.wait { streams.allSatisfy { $0.count >= 3 } }
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
        try await Self.wait { late.count >= 2 }
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
        try await Self.wait { closing.count >= 1 }
        closingWriter.close()
        // Dropped when it comes due; the timer's ticks run one at a time, so no write to it is in flight after.
        try await Self.wait { heartbeats.streamCount == 1 }
        #expect(heartbeats.streamCount == 1)
        let sentBeforeClose = closing.count, openBefore = open.count
        try await Self.wait { open.count >= openBefore + 3 }
        #expect(open.count >= openBefore + 3)
        #expect(closing.count == sentBeforeClose)
    }

    @Test func stopEndsEveryStreamsHeartbeats() async throws {
        let heartbeats = StreamHeartbeat(commentInterval: .milliseconds(5))
        let stream = Collected()
        heartbeats.start(on: stream.writer())
        try await Self.wait { stream.count >= 1 }
        heartbeats.stop()
        heartbeats.start(on: Collected().writer())
        #expect(heartbeats.streamCount == 0)
        #expect(stream.count >= 1)
    }
}
