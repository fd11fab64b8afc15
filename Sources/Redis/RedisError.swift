/// Why a Redis command or connection failed.
///
/// ``description`` never contains a command's arguments or a value (they may be cached pages or secrets); a server
/// error reply is quoted as the server sent it (``serverMessage``). A plain value: thread-safe.
public struct RedisError: Error, Sendable, Equatable, CustomStringConvertible {
    private enum Code: Sendable, Equatable {
        case unavailable, connectFailed(String), connectionLost, timedOut, replyTooLarge, shutdown, cancelled
        case protocolViolation(String)
        case server(String)
        case unexpectedReply(String)
        case invalidConfiguration(String)
    }

    private let code: Code
    private init(_ code: Code) { self.code = code }

    /// No connection to Redis is up (it is down or being re-established in the background): the command was not
    /// sent. Callers fall back to what they do without Redis.
    public static let unavailable = RedisError(.unavailable)
    /// Connecting failed (`why`: refused, no such socket, connect timeout...).
    public static func connectFailed(_ why: String) -> RedisError { RedisError(.connectFailed(why)) }
    /// The connection closed or broke while the command was in flight; it may or may not have run.
    public static let connectionLost = RedisError(.connectionLost)
    /// No reply within the command's timeout. The connection it was sent on is closed and re-established (its
    /// replies can no longer be matched to commands), so the command may or may not have run.
    public static let timedOut = RedisError(.timedOut)
    /// A reply exceeded ``RESPLimits`` (bulk length, element count, nesting or total size).
    public static let replyTooLarge = RedisError(.replyTooLarge)
    /// The client (or the dedicated connection, or subscription) was shut down.
    public static let shutdown = RedisError(.shutdown)
    /// The calling task was cancelled; the reply, if any comes, is discarded.
    public static let cancelled = RedisError(.cancelled)
    /// The server sent bytes that are not RESP (`why` names what was wrong).
    public static func protocolViolation(_ why: String) -> RedisError { RedisError(.protocolViolation(why)) }
    /// The server answered with an error reply, e.g. `NOSCRIPT No matching script...`.
    public static func server(_ message: String) -> RedisError { RedisError(.server(message)) }
    /// A reply of a type the convenience command does not expect (`what` names the command).
    public static func unexpectedReply(_ what: String) -> RedisError { RedisError(.unexpectedReply(what)) }
    /// The configuration cannot work (`why` says which field).
    public static func invalidConfiguration(_ why: String) -> RedisError { RedisError(.invalidConfiguration(why)) }

    /// The server's error message for ``server(_:)``, else nil.
    public var serverMessage: String? {
        if case .server(let message) = code { return message }
        return nil
    }

    /// Whether this is the server's `NOSCRIPT` error (EVALSHA of a script it does not have: send EVAL).
    public var isNoScript: Bool { serverMessage?.hasPrefix("NOSCRIPT") ?? false }

    /// Whether the failure says nothing about the command itself: Redis was unreachable, slow or the connection
    /// broke. Callers treat these as "Redis is not there right now" and fall back.
    public var isConnectionProblem: Bool {
        switch code {
        case .unavailable, .connectFailed, .connectionLost, .timedOut, .protocolViolation, .replyTooLarge: return true
        default: return false
        }
    }

    public var description: String {
        switch code {
        case .unavailable: return "redis is unavailable (no connection is up)"
        case .connectFailed(let why): return "could not connect to redis: \(why)"
        case .connectionLost: return "the connection to redis broke before the reply"
        case .timedOut: return "redis did not reply in time"
        case .replyTooLarge: return "the redis reply exceeds the configured limits"
        case .shutdown: return "the redis client is shut down"
        case .cancelled: return "the redis command was cancelled"
        case .protocolViolation(let why): return "redis sent an invalid reply: \(why)"
        case .server(let message): return "redis error: \(message)"
        case .unexpectedReply(let what): return "unexpected redis reply to \(what)"
        case .invalidConfiguration(let why): return "invalid redis configuration: \(why)"
        }
    }
}
