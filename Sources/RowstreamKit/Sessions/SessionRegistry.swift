import Synchronization

/// The open viewer sessions by id, so the POST routes can find the session a page drives.
/// Thread-safe: one small locked dictionary.
final class SessionRegistry: Sendable {
    private let sessions = Mutex<[SessionID: ViewerSession]>([:])

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
