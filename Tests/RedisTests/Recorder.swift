import Redis
import Synchronization

/// Collects what an async stream yields, from a task of its own, so a test polls it with `eventually` (bounded)
/// instead of awaiting a stream that may never yield. Thread-safe (one `Mutex`).
final class Recorder<Element: Sendable>: Sendable {
    /// Thread-safe (one `Mutex`).
    private final class Items: Sendable {
        let list = Mutex<[Element]>([])
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
        return fields.contains { $0.hasPrefix("flags=") && $0.contains("b") } && fields.contains { $0 == "cmd=\(command)" }
    }
}
