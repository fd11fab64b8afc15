import Locking

/// The open viewer sessions by id, so the POST routes can find the session a page drives, and those that ended
/// lately (``EndedSessions``), so a demand under another table's URL is told it is wrong.
/// Thread-safe: one small lock over both.
final class SessionRegistry: Sendable {
    /// What the registry knows of a session id.
    enum Lookup {
        /// Open: its stream is there.
        case open(ViewerSession)
        /// Not open here: it ended (lately or long ago, or before a restart) or its stream is on another instance.
        /// A demand for it is late or misdirected, not wrong: its page's stream gets (or got) a new session.
        case notHere
        /// Open, or ended lately, as a session of another table: the URL is wrong.
        case otherTable
    }

    private struct Sessions {
        var open: [SessionID: ViewerSession] = [:]
        var ended: EndedSessions
    }

    private let sessions: Lock<Sessions>
    /// The first byte of every id this registry makes (``ServerConfiguration/instanceTag``); nil: all random.
    let instanceTag: UInt8?
    /// With a relay: the first 32 bits of every id this registry makes (``DemandRelay/instance``, which holds the tag).
    let instance: UInt32?

    init(instanceTag: UInt8? = nil, instance: UInt32? = nil, ended: EndedSessions = EndedSessions()) {
        self.instanceTag = instanceTag
        self.instance = instance
        sessions = Lock(Sessions(ended: ended))
    }

    /// A new random id for a session of this instance.
    func makeID() -> SessionID {
        if let instance { return SessionID.make(instance: instance) }
        return SessionID.make(tag: instanceTag)
    }

    func insert(_ session: ViewerSession) {
        sessions.withLock { $0.open[session.id] = session }
    }

    /// Forgets `session` (its stream closed) and remembers that it ended.
    func remove(_ session: ViewerSession) {
        sessions.withLock { sessions in
            guard sessions.open[session.id] === session else { return }
            sessions.open[session.id] = nil
            sessions.ended.record(session.id, table: session.table.name, at: .now)
        }
    }

    /// Session `id` of table `table`: open here, not here, or known here as another table's.
    func lookup(_ id: SessionID, table: String) -> Lookup {
        sessions.withLock { sessions in
            if let session = sessions.open[id] { return session.table.name == table ? .open(session) : .otherTable }
            if let ended = sessions.ended.table(of: id, at: .now), ended != table { return .otherTable }
            return .notHere
        }
    }

    var count: Int { sessions.withLock { $0.open.count } }
}
