extension StreamWriter {
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
    /// Thread-safe: call from any thread.
    public static func broadcast(_ bytes: [UInt8], to writers: some Sequence<StreamWriter>) {
        guard !bytes.isEmpty else { return }
        var groups: [LoopGroup] = []
        for writer in writers {
            switch writer.target {
            case .sink:
                writer.write(bytes)
            case .connection(let connection, let loop):
                // A handful of loops (about one per core): a linear search beats hashing.
                if let index = groups.firstIndex(where: { $0.loop === loop }) {
                    groups[index].connections.append(connection)
                } else {
                    groups.append(LoopGroup(loop: loop, connections: [connection]))
                }
            }
        }
        for group in groups { group.write(bytes) }
    }
}

/// The connections of one broadcast that live on one event loop. Thread rules: built by the broadcasting
/// thread, then moved to the loop; only the loop touches the connections.
private struct LoopGroup {
    let loop: EventLoop
    var connections: [Connection]

    func write(_ bytes: [UInt8]) {
        let connections = connections
        if loop.inEventLoop {
            for connection in connections { connection.writeShared(bytes) }
        } else {
            loop.execute {
                for connection in connections { connection.writeShared(bytes) }
            }
        }
    }
}
