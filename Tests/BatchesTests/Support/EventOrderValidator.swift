@testable import Batches

/// Replays an event sequence from a page-number source whose item values equal their positions, and
/// lists every rule the sequence breaks: a load starts only when none is running and not after the end,
/// batches arrive at the current offset with the right items, `completed` follows the last batch.
struct EventOrderValidator {
    private var offset = 0
    private var inFlight = false
    private var completed = false
    private var expectCompleted = false
    private(set) var violations: [String] = []

    /// Items delivered since the last reset.
    var currentOffset: Int { offset }

    mutating func check(_ events: [BatchesEvent<Int, Int>]) {
        for (index, event) in events.enumerated() { check(event, at: index) }
    }

    private mutating func check(_ event: BatchesEvent<Int, Int>, at index: Int) {
        func fail(_ rule: String) { violations.append("#\(index) \(event): \(rule)") }
        if expectCompleted, case .completed = event {} else if expectCompleted { fail("completed must follow the last batch") }
        switch event {
        case .reset:
            (offset, inFlight, completed) = (0, false, false)
        case .loading(let at):
            if inFlight { fail("load started while one is in flight") }
            if completed { fail("load started after completion") }
            if at != offset { fail("loading offset \(at) != \(offset)") }
            inFlight = true
        case .batch(let items, let at, let next):
            if !inFlight { fail("batch without a load") }
            if at != offset { fail("batch offset \(at) != \(offset)") }
            if items != Array(at..<at + items.count) { fail("items do not match their offset") }
            offset += items.count
            inFlight = false
            expectCompleted = next == nil
        case .completed(let total):
            if !expectCompleted { fail("completed without a last batch") }
            if total != offset { fail("total \(total) != \(offset)") }
            expectCompleted = false
            completed = true
        case .failed:
            fail("no failures expected")
        }
    }
}
