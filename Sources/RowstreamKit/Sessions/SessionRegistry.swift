import Locking

/// The open viewer sessions by id, so the POST routes can find the session a page drives, and those that ended
/// lately (``EndedSessions``), so a demand that raced its stream's end is told so.
/// Thread-safe: one small lock over both.
final class SessionRegistry: Sendable {
    /// What the registry knows of a session id.
    enum Lookup {
        /// Open: its stream is there.
        case open(ViewerSession)
        /// It ended lately (its stream closed): a demand for it is late, not wrong.
        case ended
        /// Never known here, ended long ago, or of another table.
        case unknown
    }

    private struct Sessions {
        var open: [SessionID: ViewerSession] = [:]
        var ended: EndedSessions
    }

    private let sessions: Lock<Sessions>
    /// The first byte of every id this registry makes (``ServerConfiguration/instanceTag``); nil: all random.
    let instanceTag: UInt8?

    init(instanceTag: UInt8? = nil, ended: EndedSessions = EndedSessions()) {
        self.instanceTag = instanceTag
        sessions = Lock(Sessions(ended: ended))
    }

    /// A new random id for a session of this instance.
    func makeID() -> SessionID { SessionID.make(tag: instanceTag) }

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

    /// Session `id` of table `table`: open, ended lately, or unknown.
    func lookup(_ id: SessionID, table: String) -> Lookup {
        sessions.withLock { sessions in
            if let session = sessions.open[id] { return session.table.name == table ? .open(session) : .unknown }
            return sessions.ended.contains(id, table: table, at: .now) ? .ended : .unknown
        }
    }

    var count: Int { sessions.withLock { $0.open.count } }
}
