import Foundation

/// How serious a ``RowstreamLogger`` line is.
public enum RowstreamLogLevel: Int, Sendable, Comparable, CustomStringConvertible {
    case debug, info, warning, error

    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }

    public var description: String {
        switch self {
        case .debug: "debug"
        case .info: "info"
        case .warning: "warning"
        case .error: "error"
        }
    }
}

/// Where the library reports what it does not hand to a viewer (a loader's unexpected error, an upstream failure),
/// set in ``ServerConfiguration/logger``. Replace it to send the lines to your own logging.
///
/// - Important: called from any thread or task (loads run concurrently): implementations must be thread-safe and
///   must not block for long.
public protocol RowstreamLogger: Sendable {
    func log(_ level: RowstreamLogLevel, _ message: String)
}

/// The default logger: one line `rowstream: MESSAGE` on standard error per call, whatever the level.
/// Thread-safe: each line is one `write`.
public struct StandardErrorLogger: RowstreamLogger {
    public init() {}

    public func log(_ level: RowstreamLogLevel, _ message: String) {
        FileHandle.standardError.write(Data("rowstream: \(message)\n".utf8))
    }
}
