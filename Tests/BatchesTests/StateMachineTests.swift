import Testing
@testable import Batches

/// The pure state machine, driven step by step: each case is a script of inputs and the actions they
/// must produce.
@Suite struct StateMachineTests {
    typealias Machine = BatchesStateMachine<String>
    typealias Action = Machine.Action

    enum Input: CustomStringConvertible {
        case loadNext, reload, cancel
        case succeed(UInt64, count: Int, next: String?)
        case fail(UInt64)
        case timeout(UInt64)

        var description: String {
            switch self {
            case .loadNext: "loadNext"
            case .reload: "reload"
            case .cancel: "cancel"
            case .succeed(let id, let count, let next): "succeed(\(id), \(count), \(next ?? "nil"))"
            case .fail(let id): "fail(\(id))"
            case .timeout(let id): "timeout(\(id))"
            }
        }
    }

    struct Script: CustomTestStringConvertible, Sendable {
        let name: String
        let steps: @Sendable () -> [(Input, Action)]
        var testDescription: String { name }
    }

    static let boom = LoadFailure(message: "boom", isRetryable: true)

    static func id(_ raw: UInt64) -> Machine.LoadID { Machine.LoadID(rawValue: raw) }
    static func request(_ raw: UInt64, _ token: String, _ offset: Int) -> Machine.LoadRequest {
        Machine.LoadRequest(id: id(raw), token: token, offset: offset)
    }

    static let scripts: [Script] = [
        Script(name: "first loadNext starts the initial token") { [
            (.loadNext, .startLoad(request(1, "a", 0))),
        ] },
        Script(name: "loadNext while loading does nothing") { [
            (.loadNext, .startLoad(request(1, "a", 0))),
            (.loadNext, .none),
            (.loadNext, .none),
        ] },
        Script(name: "success moves to the next token and offset") { [
            (.loadNext, .startLoad(request(1, "a", 0))),
            (.succeed(1, count: 3, next: "b"), .deliver(offset: 0, next: "b", completedTotal: nil)),
            (.loadNext, .startLoad(request(2, "b", 3))),
        ] },
        Script(name: "last batch completes; loadNext then does nothing") { [
            (.loadNext, .startLoad(request(1, "a", 0))),
            (.succeed(1, count: 2, next: nil), .deliver(offset: 0, next: nil, completedTotal: 2)),
            (.loadNext, .none),
        ] },
        Script(name: "failure, then loadNext retries the same token") { [
            (.loadNext, .startLoad(request(1, "a", 0))),
            (.succeed(1, count: 2, next: "b"), .deliver(offset: 0, next: "b", completedTotal: nil)),
            (.loadNext, .startLoad(request(2, "b", 2))),
            (.fail(2), .fail(boom, offset: 2, cancelling: nil)),
            (.loadNext, .startLoad(request(3, "b", 2))),
        ] },
        Script(name: "reload while loading cancels it and makes its result stale") { [
            (.loadNext, .startLoad(request(1, "a", 0))),
            (.succeed(1, count: 2, next: "b"), .deliver(offset: 0, next: "b", completedTotal: nil)),
            (.loadNext, .startLoad(request(2, "b", 2))),
            (.reload, .reset(cancelling: id(2), then: request(3, "a", 0))),
            (.succeed(2, count: 2, next: "c"), .none),
            (.fail(2), .none),
            (.timeout(2), .none),
            (.succeed(3, count: 1, next: "b"), .deliver(offset: 0, next: "b", completedTotal: nil)),
        ] },
        Script(name: "reload when idle or completed starts over") { [
            (.reload, .reset(cancelling: nil, then: request(1, "a", 0))),
            (.succeed(1, count: 1, next: nil), .deliver(offset: 0, next: nil, completedTotal: 1)),
            (.reload, .reset(cancelling: nil, then: request(2, "a", 0))),
        ] },
        Script(name: "timeout fails retryably, cancels the task, and the late result is stale") { [
            (.loadNext, .startLoad(request(1, "a", 0))),
            (.timeout(1), .fail(.timedOut, offset: 0, cancelling: id(1))),
            (.succeed(1, count: 2, next: "b"), .none),
            (.timeout(1), .none),
            (.loadNext, .startLoad(request(2, "a", 0))),
        ] },
        Script(name: "cancel is terminal") { [
            (.loadNext, .startLoad(request(1, "a", 0))),
            (.cancel, .stop(cancelling: id(1))),
            (.succeed(1, count: 2, next: "b"), .none),
            (.loadNext, .none),
            (.reload, .none),
            (.cancel, .none),
        ] },
        Script(name: "a cursor that does not advance ends the list") { [
            (.loadNext, .startLoad(request(1, "a", 0))),
            (.succeed(1, count: 2, next: "a"), .deliver(offset: 0, next: nil, completedTotal: 2)),
            (.loadNext, .none),
        ] },
    ]

    @Test(arguments: scripts)
    func transitions(script: Script) {
        var machine = Machine(initialToken: "a")
        for (step, (input, expected)) in script.steps().enumerated() {
            let action = Self.apply(input, to: &machine)
            #expect(action == expected, "step \(step): \(input)")
        }
    }

    @Test func snapshotsFollowTheStates() {
        var machine = Machine(initialToken: "a", start: (token: "p3", offset: 20))
        #expect(machine.snapshot == BatchesSnapshot(isLoading: false, isCompleted: false, error: nil, offset: 20,
                                                    nextToken: "p3"))
        _ = machine.loadNext()
        #expect(machine.snapshot == BatchesSnapshot(isLoading: true, isCompleted: false, error: nil, offset: 20,
                                                    nextToken: "p3"))
        _ = machine.loadFailed(Self.id(1), Self.boom)
        #expect(machine.snapshot == BatchesSnapshot(isLoading: false, isCompleted: false, error: Self.boom,
                                                    offset: 20, nextToken: "p3"))
        _ = machine.loadNext()
        _ = machine.loadSucceeded(Self.id(2), count: 5, next: nil)
        #expect(machine.snapshot == BatchesSnapshot(isLoading: false, isCompleted: true, error: nil, offset: 25,
                                                    nextToken: nil))
        _ = machine.cancel()
        #expect(machine.snapshot.isCancelled)
        #expect(machine.snapshot.offset == 25)
    }

    private static func apply(_ input: Input, to machine: inout Machine) -> Action {
        switch input {
        case .loadNext: machine.loadNext()
        case .reload: machine.reload()
        case .cancel: machine.cancel()
        case .succeed(let raw, let count, let next): machine.loadSucceeded(id(raw), count: count, next: next)
        case .fail(let raw): machine.loadFailed(id(raw), boom)
        case .timeout(let raw): machine.loadTimedOut(id(raw))
        }
    }
}
