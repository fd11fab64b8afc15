import Locking

/// How the data source changes: one transition of its machine under the lock, then its effects outside it (a load
/// started, answered from memory, waiting for memory's callback or in a task of its own; a stale flight stopped; the
/// events drained to `onEvent`); a load's outcome is the next transition.
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

    /// The running parts of one load: its task (none while it waits for an in-memory loader's callback) and what
    /// stops its timeout timer (for a waiting load, its callback too: one closure, so that a data source, idle or not,
    /// holds no more than it did before loads could wait). Thread-safe: immutable.
    @usableFromInline struct Flight: Sendable {
        @usableFromInline let id: Machine.LoadID
        @usableFromInline let task: Task<Void, Never>?
        @usableFromInline let cancelTimer: @Sendable () -> Void

        @inlinable init(id: Machine.LoadID, task: Task<Void, Never>?, cancelTimer: @escaping @Sendable () -> Void) {
            self.id = id
            self.task = task
            self.cancelTimer = cancelTimer
        }

        @inlinable func cancel() {
            cancelTimer()
            task?.cancel()
        }
    }

    /// Runs `loader` for `request` in a task, arms its timeout, and records both as the flight; first, `inMemory`'s
    /// answer (if any) is the load's outcome at once, with no task and no timer, or its promise (`.pending`) is the
    /// flight, with no task (``landed(_:_:loader:executor:)``). `onCaller`: the task starts on this thread
    /// (`Task.immediate`); a load over before it suspends (delivered already) arms no timeout. `executor`: where the
    /// task goes on after it suspends. Called outside the lock.
    @inlinable func start(_ request: Machine.LoadRequest, with loader: @escaping Loader, inMemory: InMemoryLoader? = nil,
                          onCaller: Bool = false, executor: (any TaskExecutor)? = nil) {
        if let inMemory {
            if case .ready(let result) = inMemory(request.token, nil) { return finish(request.id, .success(result)) }
            // Held strongly by the fetch until it lands or the flight stops it (a weak reference would give every
            // data source a side table for its life).
            let answer = inMemory(request.token) { made in
                self.landed(request, made, loader: loader, executor: executor)
            }
            switch answer {
            case .ready(let result): return finish(request.id, .success(result))
            case .pending(let stop): return record(request, task: nil, stopWaiting: stop)
            case .absent: break
            }
        }
        let run: @Sendable () async -> Void = { [weak self] in
            let outcome: Result<LoadResult<Item, Token>, any Error>
            do {
                outcome = .success(try await loader(request.token))
            } catch {
                outcome = .failure(error)
            }
            self?.finish(request.id, outcome)
        }
        let task = onCaller ? Task.immediate(executorPreference: executor, operation: run)
            : Task(executorPreference: executor, operation: run)
        // Finished (or reloaded) while starting on this thread: nothing to time, nothing to record.
        if onCaller, state.withLock({ $0.machine.currentLoad?.id != request.id }) {
            task.cancel()
            return
        }
        record(request, task: task, stopWaiting: nil)
    }

    /// Records `request`'s flight with `task` (nil: it waits for an in-memory callback, which `stopWaiting` stops, with
    /// its timer) and its timeout. A flight with a task takes the place of a waiting one of the same load (the callback, which may
    /// come first, found no batch and started the task) and keeps its timer: the load's timeout still runs from its
    /// start. A waiting one never takes the place of another. The load may be over already (finished, reloaded, timed
    /// out): then what was started is stopped.
    @inlinable func record(_ request: Machine.LoadRequest, task: Task<Void, Never>?, stopWaiting: (@Sendable () -> Void)?) {
        let waitingTimer: (@Sendable () -> Void)? = task == nil ? nil : state.withLock { locked in
            guard let held = locked.flight, held.id == request.id, held.task == nil else { return nil }
            return held.cancelTimer
        }
        let timer = waitingTimer ?? armTimeout(for: request)
        let cancelTimer: @Sendable () -> Void = if let stopWaiting { { timer(); stopWaiting() } } else { timer }
        let flight = Flight(id: request.id, task: task, cancelTimer: cancelTimer)
        let (isCurrent, replaced) = state.withLock { locked -> (Bool, Flight?) in
            guard locked.machine.currentLoad?.id == request.id else { return (false, nil) }
            if let held = locked.flight, held.id == request.id, held.task != nil || task == nil { return (false, nil) }
            defer { locked.flight = flight }
            return (true, locked.flight)
        }
        if !isCurrent { flight.cancel() }
        // The waiting flight this one replaces: its callback has come; its timer is this one's (stopping it again also
        // stops that callback, which did its work), or else stopped.
        if waitingTimer == nil { replaced?.cancelTimer() }
    }

    /// Arms `request`'s load timeout (a no-op canceller when timeouts are off).
    @inlinable func armTimeout(for request: Machine.LoadRequest) -> @Sendable () -> Void {
        guard loadTimeout > .zero else { return {} }
        return clock.schedule(after: loadTimeout) { [weak self] in
            self?.transition { $0.loadTimedOut(request.id) }
        }
    }

    /// An in-memory loader's callback for `request`, from any thread: unless the load is over (then nothing is made:
    /// a stale callback takes nothing from the page, the walk's memory and the reported total included), `made`
    /// makes the outcome: the batch or the failure is the load's; nil (memory could not answer after all) starts the
    /// load's task, as if memory had had nothing.
    @inlinable func landed(_ request: Machine.LoadRequest, _ made: Landed<LoadResult<Item, Token>?, any Error>,
                           loader: @escaping Loader, executor: (any TaskExecutor)?) {
        guard state.withLock({ $0.machine.currentLoad?.id == request.id }) else { return }
        switch made() {
        case .success(let result?):
            finish(request.id, .success(result))
        case .failure(let error):
            finish(request.id, .failure(error))
        case .success(nil):
            start(request, with: loader, executor: executor)
        }
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
