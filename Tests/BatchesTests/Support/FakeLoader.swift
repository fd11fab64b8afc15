import Locking
@testable import Batches

/// A loader whose calls stay pending until the test resolves them, and which ignores cancellation
/// (the worst case for stale results). Thread-safe.
final class FakeLoader<Token: Sendable>: Sendable {
    typealias Result = LoadResult<Int, Token>

    private struct State {
        var tokens: [Token] = []
        var pending: [Int: CheckedContinuation<Result, any Error>] = [:]
    }

    private let state = Lock(State())

    /// The loader to hand the data source.
    var loader: @Sendable (Token) async throws -> Result {
        { [self] token in try await self.load(token) }
    }

    /// Tokens of all calls so far, in call order.
    var tokens: [Token] { state.withLock { $0.tokens } }

    private func load(_ token: Token) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            state.withLock { state in
                state.pending[state.tokens.count] = continuation
                state.tokens.append(token)
            }
        }
    }

    /// Resolves call `index` (0-based) with `result`.
    func resolve(_ index: Int, _ result: Result) {
        take(index).resume(returning: result)
    }

    /// Makes call `index` throw `error`.
    func fail(_ index: Int, _ error: any Error) {
        take(index).resume(throwing: error)
    }

    /// Ends every pending call with `CancellationError`, so no task stays suspended after a test.
    func finishAll() {
        let pending = state.withLock { state in
            defer { state.pending.removeAll() }
            return Array(state.pending.values)
        }
        for continuation in pending { continuation.resume(throwing: CancellationError()) }
    }

    private func take(_ index: Int) -> CheckedContinuation<Result, any Error> {
        let continuation = state.withLock { $0.pending.removeValue(forKey: index) }
        guard let continuation else { preconditionFailure("call \(index) is not pending") }
        return continuation
    }
}
