import Foundation
import RowstreamKit
import Synchronization
import TestSupport
import Testing

/// Throwing and slow loaders, cancellation, and start-up errors, through the public API only.
@Suite("Code-defined tables: errors and cancellation")
struct FailureTests {
    @Test("a thrown LoadFailure is an error event with its message; next retries the same token")
    func loadFailureThenRetry() async throws {
        let everyone = people(20)
        let failed = Mutex(false)
        let source = BatchSource<Person, Int>(initialToken: 0) { offset in
            let firstTry = offset == 10 && failed.withLock { wasFailed in
                defer { wasFailed = true }
                return !wasFailed
            }
            if firstTry {
                throw LoadFailure(message: "The directory is busy.", isRetryable: true)
            }
            let batch = Array(everyone[offset..<(offset + 10)])
            return offset == 10 ? .completed(batch) : .items(batch, next: offset + 10)
        }
        let server = try startServer([peopleTable(source)])
        defer { server.shutdown() }
        let stream = try await SSEClient(port: server.port, path: "/tables/people/stream")
        let next = try #require(try object(try await stream.next(named: "session").event.data)["next"] as? String)
        var keys = rowKeys(try await stream.next(named: "rows").event.data)
        #expect(try await post(server.port, next) == 202)
        let error = try object(try await stream.next(named: "error").event.data)
        #expect(error["message"] as? String == "The directory is busy.")
        #expect(error["retryable"] as? Bool == true)
        #expect(try await post(server.port, next) == 202, "Retry")
        keys += rowKeys(try await stream.next(named: "rows").event.data)
        _ = try await stream.next(named: "complete")
        #expect(keys == (1...20).map { "p\($0)" })
    }

    @Test("any other error is a retryable 'Loading rows failed' with its description")
    func otherError() async throws {
        struct DirectoryDown: Error, CustomStringConvertible { var description: String { "directory down" } }
        let source = BatchSource<Person, Int>(initialToken: 0) { _ in throw DirectoryDown() }
        let server = try startServer([peopleTable(source)])
        defer { server.shutdown() }
        let stream = try await SSEClient(port: server.port, path: "/tables/people/stream")
        let error = try object(try await stream.next(named: "error").event.data)
        #expect(error["message"] as? String == "Loading rows failed: directory down")
        #expect(error["retryable"] as? Bool == true)
    }

    @Test("a next token too long to seal is an error event when it is made, not an unreadable position later")
    func tooLongToken() async throws {
        let long = String(repeating: "t", count: 3_500)
        let source = BatchSource<Person, String>(initialToken: "") { token in
            token.isEmpty ? .items(people(2), next: long) : .completed([])
        }
        let server = try startServer([peopleTable(source)])
        defer { server.shutdown() }
        let stream = try await SSEClient(port: server.port, path: "/tables/people/stream")
        let error = try object(try await stream.next(named: "error").event.data)
        #expect((error["message"] as? String)?.hasPrefix("The next token is too long to hand out (3502 bytes") == true,
                "\(error)")
        #expect(error["retryable"] as? Bool == false)
    }

    @Test("closing a viewer's stream cancels its pending load (Task cancellation reaches the loader)")
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
        #expect(throws: RowstreamError.self) { try startServer(bindings) }
    }

    @Test("a batch size outside 1...500 is refused")
    func badBatchSize() {
        #expect(throws: RowstreamError.self) { try startServer([peopleTable(offsetSource(people(1)), batchSize: 0)]) }
    }
}
