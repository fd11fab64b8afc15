import HTTPServer

/// Who sent a request, as the access layer (``AccessResponder``) established it: a token's or a user's name and
/// groups, or ``everyone`` when the access mode is `none`. Routes read it as ``current`` while they answer.
///
/// Two viewers are equal when they are the same identity (name, groups, `isEveryone`), whatever requests they sent.
/// Thread-safe: a value; ``current`` is task-local (bound for the synchronous part of an answer).
public struct Viewer: Sendable, Equatable {
    /// The token's or the user's name; empty for ``everyone``.
    public let name: String
    public let groups: Set<String>
    /// True in access mode `none`: no identity, every allow list admits it.
    public let isEveryone: Bool
    /// The headers of the request being answered (its cookies in `Cookie`): what a table that forwards a viewer's own
    /// header or cookie upstream reads (docs/SECURITY.md). Never shown: ``description`` and `dump` leave them out.
    /// Empty outside a request.
    public private(set) var headers = HTTPHeaders()

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

    /// This viewer as the sender of a request with `headers`.
    public func sending(_ headers: HTTPHeaders) -> Viewer {
        var viewer = self
        viewer.headers = headers
        return viewer
    }

    public static func == (a: Viewer, b: Viewer) -> Bool {
        a.name == b.name && a.groups == b.groups && a.isEveryone == b.isEveryone
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

/// A viewer shows its name and groups, never the headers it sent (they may hold credentials).
extension Viewer: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String {
        isEveryone ? "Viewer(everyone)" : "Viewer(\(name), groups: \(groups.sorted()))"
    }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["name": name, "groups": groups, "isEveryone": isEveryone]) }
}
