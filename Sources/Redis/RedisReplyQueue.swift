/// The commands of one Redis connection that wait for their replies, oldest first: those written to the socket
/// (Redis answers them in that order) and those sent while it connects (written once it is connected). Each
/// holds its deadline and its completion; a cancelled one keeps its place without a completion, so the replies
/// that follow still find their commands.
///
/// Thread rules: a value type, owned by its ``RedisConnection`` and used on that connection's loop only.
struct RedisReplyQueue {
    typealias Completion = (Result<RESPValue, RedisError>) -> Void

    struct Entry {
        let deadline: ContinuousClock.Instant
        /// The command's caller, for cancelling (nil for AUTH/SELECT).
        let request: RedisRequest?
        /// Nil once cancelled: its reply, when it comes, is dropped.
        var complete: Completion?
    }

    /// Commands sent while connecting: written once connected (they can still time out unsent).
    private var unsent: [(arguments: [RedisArgument], entry: Entry)] = []
    /// Commands written, in order, awaiting their replies (from `head` on).
    private var written: [Entry] = []
    private var head = 0

    /// Commands written or held and not yet answered.
    var count: Int { written.count - head + unsent.count }

    /// Holds a command sent while connecting.
    mutating func holdUnsent(_ arguments: [RedisArgument], _ entry: Entry) {
        unsent.append((arguments, entry))
    }

    /// The commands held while connecting, taken out, oldest first (to be written now).
    mutating func takeUnsent() -> [(arguments: [RedisArgument], entry: Entry)] {
        defer { unsent = [] }
        return unsent
    }

    /// A command just written: its reply comes after those of the commands written before it.
    mutating func awaitReply(_ entry: Entry) {
        written.append(entry)
    }

    /// The oldest written command, taken out for the reply that came (nil: no command waits, the reply is a push).
    mutating func takeOldest() -> Entry? {
        guard head < written.count else { return nil }
        let entry = written[head]
        head += 1
        if head == written.count {
            written.removeAll(keepingCapacity: written.capacity <= 1024)
            head = 0
        } else if head >= 1024 && head * 2 >= written.count {
            written.removeSubrange(0..<head)
            head = 0
        }
        return entry
    }

    /// Takes `request`'s commands out of the queue's hands: the unsent ones are dropped, the written ones keep their
    /// place without a completion. Returns their completions (unsent first), to be failed.
    mutating func cancel(_ request: RedisRequest) -> [Completion] {
        var completions = unsent.filter { $0.entry.request === request }.compactMap(\.entry.complete)
        unsent.removeAll { $0.entry.request === request }
        for index in written.indices[head...] where written[index].request === request {
            if let complete = written[index].complete { completions.append(complete) }
            written[index].complete = nil
        }
        return completions
    }

    /// The unsent commands whose deadline has passed, taken out (they never reached Redis).
    mutating func takeOverdueUnsent(now: ContinuousClock.Instant) -> [Entry] {
        let overdue = unsent.filter { $0.entry.deadline <= now }.map(\.entry)
        if !overdue.isEmpty { unsent.removeAll { $0.entry.deadline <= now } }
        return overdue
    }

    /// Whether a written command's deadline has passed.
    func hasOverdueWritten(now: ContinuousClock.Instant) -> Bool {
        written[head...].contains { $0.deadline <= now }
    }

    /// The written commands, taken out, oldest first.
    mutating func takeWritten() -> ArraySlice<Entry> {
        defer {
            written = []
            head = 0
        }
        return written[head...]
    }

    /// Every command, taken out: the written ones, oldest first, then the unsent ones.
    mutating func takeAll() -> [Entry] {
        Array(takeWritten()) + takeUnsent().map(\.entry)
    }
}
