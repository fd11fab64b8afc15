/// What a ``PageCache`` needs from the other instances of a cluster (docs/SCALING.md, "Shared page cache and
/// single-flight"): pages by key with a time to live, a fetch lease per key (`SET key token NX PX`, released only by
/// its holder), a landing notice when a page is stored (`PUBLISH`), and whether the store is reachable now.
///
/// Keys and values are opaque here: ``SharedPageKeys`` names them, ``SharedPageCodec`` fills them. Every call is
/// bounded by the store's own timeout and throws ``SharedStoreError`` rather than wait longer; the cache then serves
/// from its own memory and coalescing (``SharedPages``), so a failing store is never a viewer's error.
///
/// Thread rules: implementations are thread-safe (`Sendable`); call anything from any task.
public protocol SharedPageStore: Sendable {
    /// Whether the store is reachable now (a hint: a call may still fail).
    var isAvailable: Bool { get }
    /// Where this instance learns that a page landed: ``announceLanding(of:)`` by any instance signals it, and so
    /// does the store losing or regaining its connection (waiters then look again rather than wait out the lease).
    var landings: LandingBoard { get }
    /// The value at `key`, or nil if there is none.
    func value(at key: String) async throws(SharedStoreError) -> [UInt8]?
    /// Stores `value` at `key`, dropped by the store after `lifetime`, unless the value there is newer: only if
    /// newer, in one atomic step (``SharedPageOrder``). So a fetch that started before a live refresh but lands after
    /// it never puts its older page over the refresh's.
    func store(_ value: [UInt8], at key: String, lifetime: Duration) async throws(SharedStoreError)
    /// Takes the lease `key` for `token` unless someone holds it (`SET key token NX PX`): whether it is ours now.
    /// It lapses by itself after `lifetime`, so a holder that dies holds up nobody for longer.
    func takeLease(_ key: String, token: String, lifetime: Duration) async throws(SharedStoreError) -> Bool
    /// Extends the lease `key` to `lifetime` from now if `token` still holds it (compare and expire): whether it
    /// did. A holder whose fetch takes long renews, so the others keep waiting for it rather than fetch too.
    func renewLease(_ key: String, token: String, lifetime: Duration) async throws(SharedStoreError) -> Bool
    /// Releases the lease `key` if `token` still holds it (compare and delete); someone else's is left alone.
    func releaseLease(_ key: String, token: String) async throws(SharedStoreError)
    /// Tells every instance (their ``landings``) that the fetch for page `key` is over: stored, or given up.
    func announceLanding(of key: String) async throws(SharedStoreError)
}

/// Why a shared store call failed. A plain value.
public struct SharedStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    private enum Code: Sendable, Equatable {
        case unavailable, timedOut
        case failed(String)
    }

    private let code: Code
    private init(_ code: Code) { self.code = code }

    /// No connection to the store now.
    public static let unavailable = SharedStoreError(.unavailable)
    /// The store did not answer within its timeout.
    public static let timedOut = SharedStoreError(.timedOut)
    /// Any other failure (an error reply, a broken connection); `why` names it without any value.
    public static func failed(_ why: String) -> SharedStoreError { SharedStoreError(.failed(why)) }

    public var description: String {
        switch code {
        case .unavailable: return "the shared store is not reachable"
        case .timedOut: return "the shared store did not answer in time"
        case .failed(let why): return "the shared store failed: \(why)"
        }
    }
}
