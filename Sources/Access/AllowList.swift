/// Who may see a table or a page: named users (or API tokens, by their names) and groups. An empty list admits
/// nobody but ``Viewer/everyone`` (access mode `none`).
///
/// Thread-safe: a value.
public struct AllowList: Sendable, Equatable {
    public var users: Set<String>
    public var groups: Set<String>

    public init(users: Set<String> = [], groups: Set<String> = []) {
        self.users = users
        self.groups = groups
    }

    /// Whether `viewer` is one of ``users`` or in one of ``groups``.
    public func admits(_ viewer: Viewer) -> Bool {
        viewer.isEveryone || users.contains(viewer.name) || !groups.isDisjoint(with: viewer.groups)
    }
}
