import EventLoop

extension StreamWriter {
    /// What one broadcast event weighs: its bytes, and their gzip-coded size when a viewer's stream is gzip-coded
    /// (compressed once for all of them). For metrics of bytes per event before and after compression.
    public struct BroadcastSize: Sendable, Hashable {
        /// The event's bytes.
        public let bytes: Int
        /// The compressed block's bytes; nil when no writer's stream is gzip-coded (nothing was compressed).
        public let gzipBytes: Int?
    }

    /// Writes the same `bytes` to every writer in `writers`: what `write(bytes)` on each would do, for a
    /// fraction of the cost.
    ///
    /// The server's writers are grouped by event loop, and each loop is handed ONE job carrying the shared bytes
    /// and its list of connections (one allocation and at most one eventfd wake-up per loop, not per writer). On
    /// the loop, a connection with nothing queued gets the bytes straight from the shared array (one `send`, no
    /// copy); one with bytes queued queues the array behind them. So each writer's order is kept: the job runs
    /// after every write already handed to that loop, and before any handed to it later (from a loop thread,
    /// writes to that loop's connections are applied at once, as `write` does). Finishing and closed streams are
    /// skipped; a connection whose unsent bytes pass its limit is dropped as a slow consumer (its stream closes,
    /// its `onClose` callbacks run). Writers made with a sink (tests) get `write(bytes)`, in turn.
    ///
    /// Gzip-coded streams (``ContentCoding``) share one ``DeflatedBlock``: the bytes are compressed once, on the
    /// calling thread, when the first such writer is met; each stream then only adds it to its checksum.
    ///
    /// Thread-safe: call from any thread.
    @discardableResult
    public static func broadcast(_ bytes: [UInt8], to writers: some Sequence<StreamWriter>) -> BroadcastSize {
        guard !bytes.isEmpty else { return BroadcastSize(bytes: 0, gzipBytes: nil) }
        var groups: [LoopGroup] = []
        var deflated: DeflatedBlock?
        for writer in writers {
            switch writer.target {
            case .sink:
                writer.write(bytes)
            case .connection(let connection, let loop):
                if writer.coding == .gzip, deflated == nil { deflated = DeflatedBlock(compressing: bytes) }
                // A handful of loops (about one per core): a linear search beats hashing.
                if let index = groups.firstIndex(where: { $0.loop === loop }) {
                    groups[index].connections.append(connection)
                } else {
                    groups.append(LoopGroup(loop: loop, connections: [connection]))
                }
            }
        }
        for group in groups { group.write(bytes, deflated: deflated) }
        return BroadcastSize(bytes: bytes.count, gzipBytes: deflated?.bytes.count)
    }
}

/// The connections of one broadcast that live on one event loop. Thread rules: built by the broadcasting
/// thread, then moved to the loop; only the loop touches the connections.
private struct LoopGroup {
    let loop: EventLoop
    var connections: [Connection]

    func write(_ bytes: [UInt8], deflated: DeflatedBlock?) {
        let connections = connections
        loop.run {
            for connection in connections { connection.writeShared(bytes, deflated: deflated) }
        }
    }
}
