// What the Redis tests share: a recorder of async streams, the test client, a blocked-client probe, errors as values.
import Redis
import Sealing
import Locking
import Testing

/// Collects what an async stream yields, from a task of its own, so a test polls it with `eventually` (bounded)
/// instead of awaiting a stream that may never yield. Thread-safe (one `Lock`).
final class Recorder<Element: Sendable>: Sendable {
    /// Thread-safe (one `Lock`).
    private final class Items: Sendable {
        let list = Lock<[Element]>([])
    }

    private let items = Items()
    private let task: Task<Void, Never>

    init(_ stream: AsyncStream<Element>) {
        task = Task { [items] in
            for await item in stream { items.list.withLock { $0.append(item) } }
        }
    }

    deinit { task.cancel() }

    var all: [Element] { items.list.withLock { $0 } }
}

/// Whether `CLIENT LIST` shows a client blocked (`flags=b`) in `command`.
func isBlocked(in command: String, _ redis: RedisClient) async -> Bool {
    guard let list = try? await redis.send("CLIENT", "LIST").string else { return false }
    return list.split(separator: "\n").contains { line in
        let fields = line.split(separator: " ")
        let blocked = fields.contains { $0.hasPrefix("flags=") && $0.contains("b") }
        return blocked && fields.contains { $0 == "cmd=\(command)" }
    }
}

/// A client on the unix socket `path` with generous timeouts (a busy machine) and a short reconnect backoff.
func testClient(_ path: String, poolSize: Int = 2, commandTimeout: Duration = .seconds(10)) throws -> RedisClient {
    try RedisClient(configuration: RedisConfiguration(
        address: .unix(path: path), poolSize: poolSize, connectTimeout: .seconds(10), commandTimeout: commandTimeout,
        reconnectBackoff: RedisBackoff(initial: .milliseconds(20), maximum: .milliseconds(200))))
}

/// The `RedisError` `body` throws, or nil (any other error is a test failure).
func failure(_ body: () async throws -> Void) async -> RedisError? {
    do {
        try await body()
        return nil
    } catch let error as RedisError {
        return error
    } catch {
        Issue.record("not a RedisError: \(error)")
        return nil
    }
}

/// The key file the tests' instances share (what binds live rows to their table).
let testStoreKey = StoreKey.random()
