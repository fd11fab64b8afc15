import Synchronization

/// A fixture upstream for a code-defined source whose replies the test releases: each fetch is counted, then held
/// until ``release()`` (or at once after ``open()``); a fetch whose task is cancelled while held ends at once and
/// is counted as cancelled. Thread-safe: one `Mutex`.
final class HeldUpstream: Sendable {
    private struct State {
        var fetches = 0, inFlight = 0, maxInFlight = 0, cancelled = 0
        var isOpen = false
        var held: [Int: CheckedContinuation<Bool, Never>] = [:]
        var cancelledEarly: Set<Int> = []
    }

    private let state = Mutex(State())

    /// One upstream request: true when released, false when its task was cancelled first.
    func fetch() async -> Bool {
        let id = state.withLock { state in
            state.fetches += 1
            state.inFlight += 1
            state.maxInFlight = max(state.maxInFlight, state.inFlight)
            return state.fetches
        }
        defer { state.withLock { $0.inFlight -= 1 } }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let answer: Bool? = state.withLock { state in
                    if state.cancelledEarly.remove(id) != nil { return false }
                    if state.isOpen { return true }
                    state.held[id] = continuation
                    return nil
                }
                if let answer { continuation.resume(returning: answer) }
            }
        } onCancel: {
            let continuation = state.withLock { state in
                state.cancelled += 1
                guard let continuation = state.held.removeValue(forKey: id) else {
                    state.cancelledEarly.insert(id)
                    return nil as CheckedContinuation<Bool, Never>?
                }
                return continuation
            }
            continuation?.resume(returning: false)
        }
    }

    /// Releases the fetches held now.
    func release() {
        let held = state.withLock { state in
            defer { state.held = [:] }
            return Array(state.held.values)
        }
        held.forEach { $0.resume(returning: true) }
    }

    /// Releases everything held and answers every later fetch at once.
    func open() {
        state.withLock { $0.isOpen = true }
        release()
    }

    var fetches: Int { state.withLock { $0.fetches } }
    var held: Int { state.withLock { $0.held.count } }
    var cancelled: Int { state.withLock { $0.cancelled } }
    var maxInFlight: Int { state.withLock { $0.maxInFlight } }
}
