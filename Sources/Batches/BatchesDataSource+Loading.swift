extension BatchesDataSource {
    /// The running parts of one load: its task and its timeout timer. Thread-safe: immutable.
    struct Flight: Sendable {
        let id: Machine.LoadID
        let task: Task<Void, Never>
        let cancelTimer: @Sendable () -> Void

        func cancel() {
            cancelTimer()
            task.cancel()
        }
    }

    /// Runs `loader` for `request` in a task, arms its timeout, and records both as the flight.
    /// `onCaller`: the task starts on this thread (`Task.immediate`); a load over before it suspends (delivered
    /// already) arms no timeout. Called outside the lock.
    func start(_ request: Machine.LoadRequest, with loader: @escaping Loader, onCaller: Bool = false) {
        let run: @Sendable () async -> Void = { [weak self] in
            let outcome: Result<LoadResult<Item, Token>, any Error>
            do {
                outcome = .success(try await loader(request.token))
            } catch {
                outcome = .failure(error)
            }
            self?.finish(request.id, outcome)
        }
        let task = onCaller ? Task.immediate(operation: run) : Task(operation: run)
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
    private func finish(_ id: Machine.LoadID, _ outcome: Result<LoadResult<Item, Token>, any Error>) {
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
