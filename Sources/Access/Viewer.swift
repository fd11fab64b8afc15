/// Who sent a request, as the access layer (``AccessResponder``) established it: a token's or a user's name and
/// groups, or ``everyone`` when the access mode is `none`. Routes read it as ``current`` while they answer.
///
/// Thread-safe: a value; ``current`` is task-local (bound for the synchronous part of an answer).
public struct Viewer: Sendable, Equatable {
    /// The token's or the user's name; empty for ``everyone``.
    public let name: String
    public let groups: Set<String>
    /// True in access mode `none`: no identity, every allow list admits it.
    public let isEveryone: Bool

    public init(name: String, groups: Set<String> = []) {
        self.name = name
        self.groups = groups
        isEveryone = false
    }

    private init(everyone: Void) {
        name = ""
        groups = []
        isEveryone = true
    }

    /// The viewer of access mode `none`.
    public static let everyone = Viewer(everyone: ())
    /// No one: no name, no group. What code outside the access layer sees, so a route that forgot it fails closed
    /// (tables and pages with an allow list refuse it).
    public static let nobody = Viewer(name: "")

    /// The viewer of the request being answered, bound by ``AccessResponder`` around the route's answer: its
    /// synchronous part, its `.later` task and a stream's opening. ``nobody`` anywhere else.
    @TaskLocal public static var current: Viewer = .nobody
}
