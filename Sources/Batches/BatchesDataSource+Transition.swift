import Locking

/// How the data source changes: one transition of its machine under the lock, then its effects outside it (a load
/// started in a task of its own, a stale flight stopped, the events drained to `onEvent`); a load's outcome is the next
/// transition.
extension BatchesDataSource {
    /// What to do outside the lock after one transition.
    @usableFromInline struct Effects {
        /// A load to start, with the loaders current when it was decided.
        @usableFromInline var start: (request: Machine.LoadRequest, loader: Loader, inMemory: InMemoryLoader?)?
        @usableFromInline var cancel: Flight?
        @usableFromInline var drain = false

        @inlinable init() {}
    }

    /// Runs one machine transition under the lock, queues its events, then acts outside the lock.
    ///
    /// - Parameter items: the batch, when the transition is a load's success.
    /// - Parameter isOutcome: the transition is a load's outcome; if the machine ignores it (stale), count
    ///   it in ``Locked/discardedOutcomes``.
    /// - Parameter loader: replaces the loader before the transition (a reload with another choice).
    /// - Parameter onCaller: a load it starts runs on this thread until it first suspends (``loadNextOnCaller(preferring:)``),
    ///   then on `executor` (nil: the cooperative pool).
    @inlinable func transition(items: [Item] = [], isOutcome: Bool = false, loader: Loader? = nil, onCaller: Bool = false,
                               executor: (any TaskExecutor)? = nil, _ change: (inout Machine) -> Machine.Action) {
        let effects = state.withLock { locked -> Effects in
            if let loader {
                locked.loader = loader
                locked.inMemory = nil  // the old loader's memory is not the new one's
            }
            let action = change(&locked.machine)
            if isOutcome, case .none = action { locked.discardedOutcomes += 1 }
            let effects = Self.apply(action, items: items, to: &locked)
            // Asked once, by the caller's first load: an idle viewer holds no in-memory loader (its closure).
            if onCaller, effects.start != nil { locked.inMemory = nil }
            return effects
        }
        effects.cancel?.cancel()
        if let (request, loader, inMemory) = effects.start {
            start(request, with: loader, inMemory: onCaller ? inMemory : nil, onCaller: onCaller, executor: executor)
        }
        if effects.drain { drain() }
    }

    /// Turns an action into queued events and effects. Called under the lock.
    @inlinable static func apply(_ action: Machine.Action, items: [Item], to locked: inout Locked) -> Effects {
        var effects = Effects()
        // A fresh viewer's `loading` and then its batch (perhaps `completed` too) come in two transitions: room for
        // them at the first, one allocation instead of a growth per event (the outbox is let go when drained).
        if locked.outbox.capacity == 0 {
            switch action {
            case .none, .stop: break
            default: locked.outbox.reserveCapacity(4)
            }
        }
        switch action {
        case .none:
            return effects
        case .startLoad(let request):
            locked.outbox.append(.loading(offset: request.offset))
            effects.start = (request, locked.loader, locked.inMemory)
        case .reset(_, let request):
            locked.outbox.append(.reset)
            locked.outbox.append(.loading(offset: request.offset))
            effects.start = (request, locked.loader, locked.inMemory)
        case .deliver(let offset, let next, let completedTotal):
            locked.outbox.append(.batch(items: items, offset: offset, next: next))
            if let completedTotal { locked.outbox.append(.completed(total: completedTotal)) }
        case .fail(let failure, let offset, _):
            locked.outbox.append(.failed(failure, offset: offset))
        case .stop:
            locked.outbox.removeAll()
        }
        // Any flight that is not the machine's current load is finished or stale: stop its task and timer.
        if let flight = locked.flight, flight.id != locked.machine.currentLoad?.id {
            locked.flight = nil
            effects.cancel = flight
        }
        if !locked.outbox.isEmpty && !locked.isDraining {
            locked.isDraining = true
            effects.drain = true
        }
        return effects
    }

    /// Delivers queued events one at a time, outside the lock, until the outbox is empty.
    /// Only one caller drains at a time (``Locked/isDraining``); events queued meanwhile are picked up here.
    @inlinable func drain() {
        while true {
            let next = state.withLock { locked -> Event? in
                if locked.outbox.isEmpty {
                    locked.isDraining = false
                    locked.outbox = []   // an idle viewer holds no outbox storage
                    return nil
                }
                return locked.outbox.removeFirst()
            }
            guard let next else { return }
            onEvent(next)
        }
    }

    // MARK: Loads (a transition's effect, and a load's outcome the next transition)

    /// The running parts of one load: its task and its timeout timer. Thread-safe: immutable.
    @usableFromInline struct Flight: Sendable {
        @usableFromInline let id: Machine.LoadID
        @usableFromInline let task: Task<Void, Never>
        @usableFromInline let cancelTimer: @Sendable () -> Void

        @inlinable init(id: Machine.LoadID, task: Task<Void, Never>, cancelTimer: @escaping @Sendable () -> Void) {
            self.id = id
            self.task = task
            self.cancelTimer = cancelTimer
        }

        @inlinable func cancel() {
            cancelTimer()
            task.cancel()
        }
    }

    /// Runs `loader` for `request` in a task, arms its timeout, and records both as the flight; first, `inMemory`'s
    /// answer (if any) is the load's outcome at once, with no task and no timer. `onCaller`: the task starts on this
    /// thread (`Task.immediate`); a load over before it suspends (delivered already) arms no timeout. Called outside
    /// the lock.
    @inlinable func start(_ request: Machine.LoadRequest, with loader: @escaping Loader, inMemory: InMemoryLoader? = nil,
                          onCaller: Bool = false, executor: (any TaskExecutor)? = nil) {
        if let inMemory, let result = inMemory(request.token) { return finish(request.id, .success(result)) }
        let run: @Sendable () async -> Void = { [weak self] in
            let outcome: Result<LoadResult<Item, Token>, any Error>
            do {
                outcome = .success(try await loader(request.token))
            } catch {
                outcome = .failure(error)
            }
            self?.finish(request.id, outcome)
        }
        let task = onCaller ? Task.immediate(executorPreference: executor, operation: run) : Task(operation: run)
        // Finished (or reloaded) while starting on this thread: nothing to time, nothing to record.
        if onCaller, state.withLock({ $0.machine.currentLoad?.id != request.id }) {
            task.cancel()
            return
        }
        let cancelTimer: @Sendable () -> Void
        if loadTimeout > .zero {
            cancelTimer = clock.schedule(after: loadTimeout) { [weak self] in
                self?.transition { $0.loadTimedOut(request.id) }
            }
        } else {
            cancelTimer = {}
        }
        let flight = Flight(id: request.id, task: task, cancelTimer: cancelTimer)
        // The load may already be over (finished, reloaded, timed out): then stop what was just started.
        let isCurrent = state.withLock { locked in
            guard locked.machine.currentLoad?.id == request.id else { return false }
            locked.flight = flight
            return true
        }
        if !isCurrent { flight.cancel() }
    }

    /// Feeds a load's outcome to the machine; a stale one (reloaded, timed out, cancelled) is ignored.
    @inlinable func finish(_ id: Machine.LoadID, _ outcome: Result<LoadResult<Item, Token>, any Error>) {
        switch outcome {
        case .success(.items(let items, let next)):
            transition(items: items, isOutcome: true) { $0.loadSucceeded(id, count: items.count, next: next) }
        case .success(.completed(let items)):
            transition(items: items, isOutcome: true) { $0.loadSucceeded(id, count: items.count, next: nil) }
        case .failure(let error):
            transition(isOutcome: true) { $0.loadFailed(id, LoadFailure(error)) }
        }
    }
}
