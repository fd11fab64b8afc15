/// Hands a demand that reached an instance other than its session's owner to the owner, and the owner's answer back
/// (docs/SCALING.md, "Any instance answers any request"). The dashboard's is `RedisDemandRelay` (a pub/sub channel per
/// instance); give the server one with ``ServerConfiguration/demandRelay``.
///
/// A drained instance's sessions are gone from its registry, so it answers `ended` for them until its relay closes
/// (the dashboard closes it with its Redis client); then no one takes its demands and the sender answers `ended`.
///
/// Thread rules: implementations are thread-safe; `forward` is called from the routes' tasks, the `serve` handler
/// from the relay's own task (it must not block: it only looks a session up and starts its load).
package protocol DemandRelay: Sendable {
    /// This instance's id: the first 32 bits of every session id it makes (``SessionID/instance``). Its first byte
    /// is the instance tag when one is given (so a tag-routing proxy still finds the owner without a hop), the rest
    /// random per start, so a restarted instance never takes demands for its predecessor's sessions.
    var instance: UInt32 { get }

    /// Hands `demand` to instance `owner` and returns its answer; ``RelayedAnswer/ended`` when no instance `owner`
    /// is there (gone, restarted) or it did not answer within the relay's budget, and ``RelayedAnswer/unreachable``
    /// when the relay itself cannot be reached (Redis down).
    func forward(_ demand: RelayedDemand, to owner: UInt32) async -> RelayedAnswer

    /// Starts handing the demands sent to this instance to `answer`, which acts on them and says what it did. Called
    /// once, at the server's start.
    func serve(_ answer: @escaping @Sendable (RelayedDemand) -> RelayedAnswer)
}

/// A demand for a session held by another instance, as the instance that received it hands it on. A plain value.
package struct RelayedDemand: Sendable, Equatable {
    package enum Kind: UInt8, Sendable {
        /// `POST next` or Turbo's `GET next`: load the next batch.
        case next = 1
        /// `POST reload`, with the `p.PARAMETER=VALUE` choice of a page's table (``choice``).
        case reload = 2
    }

    package var kind: Kind
    package var table: String
    package var session: SessionID
    /// A reload's control choice by parameter (already checked against the table's options where it arrived).
    package var choice: [String: String]

    package init(kind: Kind, table: String, session: SessionID, choice: [String: String] = [:]) {
        self.kind = kind
        self.table = table
        self.session = session
        self.choice = choice
    }
}

/// What the owner did with a ``RelayedDemand``, which the instance that received it answers as if it had done it.
package enum RelayedAnswer: UInt8, Sendable {
    /// Done (`202`; Turbo's frame).
    case accepted = 1
    /// No such session open there (`204`, `Rowstream-Session: ended`): the stream's reconnect gets a new one.
    case ended = 2
    /// The id is another table's session there (`404`).
    case otherTable = 3
    /// The reload's choice is no option of the table (`400`).
    case badChoice = 4
    /// The relay could not be reached (Redis down or failing): answered as `ended`, counted apart.
    case unreachable = 5
}
