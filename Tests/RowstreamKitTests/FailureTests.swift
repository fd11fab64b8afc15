import Foundation
import RowstreamKit
import RowstreamTesting
import Synchronization
import TestSupport
import Testing

/// An error that is not a `LoadFailure`.
private struct DirectoryDown: Error, CustomStringConvertible { var description: String { "directory down" } }

/// Throwing and slow loaders, cancellation, and start-up errors, through the public API only: in-process, the
/// disconnect live.
@Suite("Code-defined tables: errors and cancellation")
struct FailureTests {
    @Test("a thrown LoadFailure is an error event with its message; next retries the same token")
    func loadFailureThenRetry() async throws {
        let source = secondBatchFailingOnce("The directory is busy.")
        let server = try testServer([peopleTable(source)])
        defer { server.shutdown() }
        let stream = try await server.client.stream("/tables/people/stream")
        defer { stream.close() }
        let next = try #require(try object(try await stream.next(named: "session").event.data)["next"] as? String)
        var keys = rowKeys(try await stream.next(named: "rows").event.data)
        #expect(await server.client.post(next).status == .accepted)
        let error = try object(try await stream.next(named: "error").event.data)
        #expect(error["message"] as? String == "The directory is busy.")
        #expect(error["retryable"] as? Bool == true)
        #expect(await server.client.post(next).status == .accepted, "Retry")
        keys += rowKeys(try await stream.next(named: "rows").event.data)
        _ = try await stream.next(named: "complete")
        #expect(keys == (1...20).map { "p\($0)" })
    }

    @Test("any other error is a retryable 'Loading rows failed' with its description")
    func otherError() async throws {
        let source = BatchSource<Person, Int>(initialToken: 0) { _ in throw DirectoryDown() }
        let logger = RecordingLogger()
        var configuration = ServerConfiguration()
        configuration.logger = logger
        let server = try RowstreamTestServer([peopleTable(source)], configuration: configuration)
        defer { server.shutdown() }
        let stream = try await server.client.stream("/tables/people/stream")
        defer { stream.close() }
        let error = try object(try await stream.next(named: "error").event.data)
        #expect(error["message"] as? String == "Loading rows failed: directory down")
        #expect(error["retryable"] as? Bool == true)
        #expect(logger.messages == ["error: table people: Loading rows failed: directory down"],
                "reported to the configured logger, not standard error")
    }

    @Test("live: a loader's unexpected error reaches the configured logger from the server's own tasks")
    func otherErrorLoggedLive() async throws {
        let loads = Counter()
        let source = BatchSource<Person, Int>(initialToken: 0) { offset in
            loads.increment()
            if offset == 0 { return .items(people(2), next: 2) }
            throw DirectoryDown()
        }
        let logger = RecordingLogger()
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.eventLoopCount = 2
        configuration.logger = logger
        let server = try RowstreamServer.start([peopleTable(source)], configuration: configuration)
        defer { server.shutdown() }
        let stream = try await SSEClient(port: server.port, path: "/tables/people/stream")
        let next = try #require(try object(try await stream.next(named: "session").event.data)["next"] as? String)
        _ = try await stream.next(named: "rows")
        #expect(try await post(server.port, next) == 202, "the second load starts from a POST on an event loop")
        _ = try await stream.next(named: "error")
        // Errors only: a listening server without configured sealing keys also says so (info) at start.
        #expect(logger.messages.filter { $0.hasPrefix("error:") } == ["error: table people: Loading rows failed: directory down"])
    }

    @Test("a next token too long to seal is an error event when it is made, not an unreadable position later")
    func tooLongToken() async throws {
        let long = String(repeating: "t", count: 3_500)
        let source = BatchSource<Person, String>(initialToken: "") { token in
            token.isEmpty ? .items(people(2), next: long) : .completed([])
        }
        let server = try testServer([peopleTable(source)])
        defer { server.shutdown() }
        let stream = try await server.client.stream("/tables/people/stream")
        defer { stream.close() }
        let error = try object(try await stream.next(named: "error").event.data)
        #expect((error["message"] as? String)?.hasPrefix("The next token is too long to hand out (3502 bytes") == true,
                "\(error)")
        #expect(error["retryable"] as? Bool == false)
    }

    @Test("live: closing a viewer's stream cancels its pending load (Task cancellation reaches the loader)")
    func closeCancelsLoad() async throws {
        // The second load waits at a gate the test never releases before the end; the gate counts its arrival and
        // whether its task was cancelled while it waited.
        let gate = ReplyGate()
        defer { gate.releaseAll() }
        let source = BatchSource<Person, Int>(initialToken: 0) { offset in
            if offset == 0 { return .items(people(2), next: 2) }
            guard await gate.pass() else { throw CancellationError() }
            return .completed([])
        }
        let server = try startServer([peopleTable(source)])
        defer { server.shutdown() }
        let stream = try await SSEClient(port: server.port, path: "/tables/people/stream")
        let next = try #require(try object(try await stream.next(named: "session").event.data)["next"] as? String)
        _ = try await stream.next(named: "rows")
        #expect(try await post(server.port, next) == 202)
        #expect(await eventually { gate.arrived == 1 }, "the second load started")
        #expect(gate.cancelled == 0)
        stream.connection.closeNow()
        #expect(await eventually { gate.cancelled == 1 }, "closing the stream cancelled the load")
    }

    @Test("start-up errors name what is wrong", arguments: [
        ["bad name"], ["ok", "ok"], [], ["x/y"], [String(repeating: "n", count: 65)],
    ])
    func startErrors(names: [String]) {
        let bindings = names.map { peopleTable(offsetSource(people(1)), name: $0) }
        #expect(throws: RowstreamError.self) { try testServer(bindings) }
    }

    @Test("a batch size outside 1...500 is refused")
    func badBatchSize() {
        #expect(throws: RowstreamError.self) { try testServer([peopleTable(offsetSource(people(1)), batchSize: 0)]) }
    }
}
