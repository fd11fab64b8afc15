import Synchronization

/// The open viewer sessions by id, so the POST routes can find the session a page drives.
/// Thread-safe: one small locked dictionary.
final class SessionRegistry: Sendable {
    private let sessions = Mutex<[SessionID: ViewerSession]>([:])
    /// The first byte of every id this registry makes (``ServerConfiguration/instanceTag``); nil: all random.
    let instanceTag: UInt8?

    init(instanceTag: UInt8? = nil) {
        self.instanceTag = instanceTag
    }

    /// A new random id for a session of this instance.
    func makeID() -> SessionID { SessionID.make(tag: instanceTag) }

    func insert(_ session: ViewerSession) {
        sessions.withLock { $0[session.id] = session }
    }

    func remove(_ session: ViewerSession) {
        sessions.withLock { dictionary in
            if dictionary[session.id] === session { dictionary[session.id] = nil }
        }
    }

    /// The session `id` of table `table`, if it is open.
    func session(_ id: SessionID, table: String) -> ViewerSession? {
        let session = sessions.withLock { $0[id] }
        return session?.table.name == table ? session : nil
    }

    var count: Int { sessions.withLock { $0.count } }
}
