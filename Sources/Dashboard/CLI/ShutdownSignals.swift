import Dispatch
import Foundation

/// SIGINT and SIGTERM as a callback: the signals are ignored as signals and delivered to Dispatch sources, so the
/// handler runs as ordinary code on a global queue (never inside a signal handler).
/// Call once, from the main thread, before serving.
public enum ShutdownSignals {
    private static let sources = ShutdownSignalSources()

    /// Calls `handler` (on a global queue) each time SIGINT or SIGTERM arrives.
    public static func install(_ handler: @escaping @Sendable (_ signal: Int32) -> Void) {
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { handler(number) }
            source.resume()
            sources.keep(source)
        }
    }
}

/// Keeps the signal sources alive for the life of the process.
private final class ShutdownSignalSources: @unchecked Sendable {
    // Guarded by `lock`; sources are only appended.
    private var sources: [DispatchSourceSignal] = []
    private let lock = NSLock()

    func keep(_ source: DispatchSourceSignal) {
        lock.withLock { sources.append(source) }
    }
}
