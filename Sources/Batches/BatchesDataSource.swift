import Locking

/// The web form of CombineDataSources' `BatchesDataSource`: two inputs (``loadNext()``, ``reload()``),
/// outputs as ``BatchesEvent``s plus a ``snapshot``, fed by a loader that turns a token (a cursor or a
/// page number) into a batch.
///
/// What it guarantees, unlike the original:
/// - A loadNext while a load is in flight, or after the last batch, loads nothing: no page is fetched
///   twice. After a failure, loadNext loads the SAME token again (the page's "Retry").
/// - ``reload()`` cancels the task of the load in flight and discards its result even if the loader
///   ignores cancellation: a stale batch is never delivered.
/// - A load that outlives `loadTimeout` fails as a retryable "timed out"; its late result is discarded.
/// - Events are delivered one at a time, in the order the transitions happened, never concurrently and
///   never under the lock (an outbox: appended under the lock, drained outside it by whichever caller
///   found no drainer running). `onEvent` may call back into the data source.
///
/// The data source does not hold the items (the viewer's page does); it counts them (the offset).
/// It holds a ``BatchesStateMachine`` behind one `Lock`: it decides under the lock and acts (starts
/// tasks, cancels them, emits events) outside it.
///
/// Thread-safe: every method may be called from any thread. `onEvent` runs on whichever thread drains.
public final class BatchesDataSource<Item: Sendable, Token: Sendable & Equatable>: Sendable {
    /// Loads the batch for a token. Should honour task cancellation, but need not: a cancelled load's
    /// result is discarded either way.
    public typealias Loader = @Sendable (Token) async throws -> LoadResult<Item, Token>
    /// Answers a load from memory now, with no suspension and no blocking, or nil (the ``Loader`` then loads it).
    public typealias InMemoryLoader = @Sendable (Token) -> LoadResult<Item, Token>?
    @usableFromInline typealias Machine = BatchesStateMachine<Token>
    @usableFromInline typealias Event = BatchesEvent<Item, Token>

    @usableFromInline let onEvent: @Sendable (Event) -> Void
    @usableFromInline let clock: any BatchesClock
    @usableFromInline let loadTimeout: Duration
    @usableFromInline let state: Lock<Locked>

    /// Everything mutable, guarded by ``state``.
    @usableFromInline struct Locked: Sendable {
        @usableFromInline var machine: Machine
        /// Loads every batch from now on; ``reload(with:)`` swaps it. Read when a load is decided.
        @usableFromInline var loader: Loader
        /// Asked first by ``loadNextOnCaller(preferring:)``, once: its load drops it, as ``reload(with:)`` does (the old
        /// loader's memory is not the new one's).
        @usableFromInline var inMemory: InMemoryLoader?
        /// Events decided but not yet delivered, oldest first.
        @usableFromInline var outbox: [Event] = []
        /// Someone is delivering the outbox; others only append.
        @usableFromInline var isDraining = false
        /// The task and timer of the load in flight (or of one just finished, until swept).
        @usableFromInline var flight: Flight?
        /// Load outcomes that arrived after their load was reloaded, timed out or cancelled, and were dropped.
        @usableFromInline var discardedOutcomes = 0

        @inlinable init(machine: Machine, loader: @escaping Loader, inMemory: InMemoryLoader?) {
            self.machine = machine
            self.loader = loader
            self.inMemory = inMemory
        }
    }

    /// `start` lets a resumed viewer continue: the first loadNext loads `start.token` and offsets continue
    /// from `start.offset`; reload always goes back to `initialToken` and offset 0.
    ///
    /// Nothing loads until the first ``loadNext()``. A `loadTimeout` of zero or less disables timeouts.
    /// `inMemory` (the same loader's answer from memory, if it has one) is asked first by ``loadNextOnCaller(preferring:)``.
    @inlinable public init(
        initialToken: Token, start: (token: Token, offset: Int)? = nil, loadTimeout: Duration = .seconds(30),
        clock: any BatchesClock = SystemBatchesClock(), loader: @escaping Loader, inMemory: InMemoryLoader? = nil,
        onEvent: @escaping @Sendable (BatchesEvent<Item, Token>) -> Void
    ) {
        self.onEvent = onEvent
        self.clock = clock
        self.loadTimeout = loadTimeout
        self.state = Lock(Locked(machine: Machine(initialToken: initialToken, start: start), loader: loader,
                                 inMemory: inMemory))
    }

    deinit {
        state.withLock { $0.flight }?.cancel()
    }

    /// Loads the next batch. No-op while loading, once completed or after cancel; after a failure
    /// retries the same token.
    @inlinable public func loadNext() {
        transition { $0.loadNext() }
    }

    /// ``loadNext()``, with the load it starts answered on the calling thread when the in-memory loader has the batch
    /// (delivered before this returns: no task at all, no timeout armed), else run on the calling thread until its
    /// loader first suspends (`Task.immediate`): a loader that answers without suspending has its batch delivered
    /// before this returns too (no task hop, no wake-up of another thread). One that suspends goes on as any load
    /// (on the cooperative pool after its first suspension, with its timeout).
    ///
    /// For a caller that may do the loader's synchronous part itself (a viewer's first batch, opened on the event
    /// loop: issue 17, arrivals). The loader must not block before its first suspension.
    ///
    /// `executor`: where the load goes on after it suspends (nil: the cooperative pool). The caller's own executor, an
    /// event loop, brings the batch back to it when the load's page lands.
    @inlinable public func loadNextOnCaller(preferring executor: (any TaskExecutor)? = nil) {
        transition(onCaller: true, executor: executor) { $0.loadNext() }
    }

    /// Emits `.reset`, cancels and discards the load in flight, and loads `initialToken` at offset 0.
    @inlinable public func reload() {
        transition { $0.reload() }
    }

    /// ``reload()`` with another loader: the reload's load and every later one use `loader` (a viewer's new sort
    /// or filter choice). The load in flight, if any, is cancelled and discarded as in ``reload()``.
    @inlinable public func reload(with loader: @escaping Loader) {
        transition(loader: loader) { $0.reload() }
    }

    /// The viewer is gone: cancels the load in flight, drops undelivered events, emits nothing more.
    /// (An `onEvent` call already running on another thread finishes.)
    @inlinable public func cancel() {
        transition { $0.cancel() }
    }

    /// `isLoading`, `isCompleted`, `error`, `offset` (items so far) and `nextToken`, as of now.
    @inlinable public var snapshot: BatchesSnapshot<Token> {
        state.withLock { $0.machine.snapshot }
    }

    /// How many load outcomes arrived stale (after a reload, timeout or cancel) and were discarded;
    /// worth exporting as a metric. Thread-safe.
    public var discardedOutcomeCount: Int {
        state.withLock { $0.discardedOutcomes }
    }
}
