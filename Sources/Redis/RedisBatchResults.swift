/// Collects the results of a batch's commands, in order, and hands them on once all are in.
///
/// Thread rules: loop-confined, like the connection that fills it.
final class RedisBatchResults {
    private var results: [Result<RESPValue, RedisError>?]
    private var missing: Int
    private let complete: ([Result<RESPValue, RedisError>]) -> Void

    init(count: Int, _ complete: @escaping ([Result<RESPValue, RedisError>]) -> Void) {
        results = Array(repeating: nil, count: count)
        missing = count
        self.complete = complete
    }

    func set(_ index: Int, _ result: Result<RESPValue, RedisError>) {
        guard results[index] == nil else { return }
        results[index] = result
        missing -= 1
        if missing == 0 { complete(results.map { $0! }) }
    }
}
