// Lock benchmark for Scripts/bench: what a `Lock` costs over the `Mutex` it wraps, uncontended, on one core.
// A `Lock` asks once per lock body whether ThreadSanitizer is there (docs/HARDENING.md, "Locks ThreadSanitizer
// sees"); this measures that, side by side in one run: Mutex and Lock alternate, 7 rounds, medians printed as JSON.
// Usage: rowstream-bench-locks [--rounds N] [--steps N]
import Dispatch
import Foundation
import Locking
import Synchronization

/// The two locks as the product holds them: stored in a class, reached through a reference.
/// Thread rules: this benchmark uses it from its main thread only.
final class Locks: Sendable {
    let lock = Lock(0)
    let mutex = Mutex(0)
}

@inline(never) func stepLock(_ locks: Locks, _ steps: Int) {
    for _ in 0..<steps { locks.lock.withLock { $0 &+= 1 } }
}

@inline(never) func stepMutex(_ locks: Locks, _ steps: Int) {
    for _ in 0..<steps { locks.mutex.withLock { $0 &+= 1 } }
}

func option(_ name: String, default value: Int) -> Int {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count,
          let number = Int(arguments[index + 1]), number > 0 else { return value }
    return number
}

func nanosecondsPerStep(_ steps: Int, _ body: () -> Void) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / Double(steps)
}

let rounds = option("--rounds", default: 7)
let steps = option("--steps", default: 20_000_000)
let locks = Locks()
var lockTimes: [Double] = []
var mutexTimes: [Double] = []
for round in 0..<rounds {
    // Alternate which goes first, so drift in the machine's speed favours neither.
    if round % 2 == 0 {
        mutexTimes.append(nanosecondsPerStep(steps) { stepMutex(locks, steps) })
        lockTimes.append(nanosecondsPerStep(steps) { stepLock(locks, steps) })
    } else {
        lockTimes.append(nanosecondsPerStep(steps) { stepLock(locks, steps) })
        mutexTimes.append(nanosecondsPerStep(steps) { stepMutex(locks, steps) })
    }
}
precondition(locks.lock.withLock { $0 } == rounds * steps && locks.mutex.withLock { $0 } == rounds * steps)
func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
let result: [String: Double] = [
    "lock_ns": median(lockTimes), "mutex_ns": median(mutexTimes),
    "lock_ratio_to_mutex": median(zip(lockTimes, mutexTimes).map { $0 / $1 }),
]
let json = try JSONSerialization.data(withJSONObject: result, options: [.sortedKeys])
print(String(decoding: json, as: UTF8.self))
