import RowstreamKit

/// A start-up error of the dashboard, with a message that names what failed.
public struct DashboardError: Error, CustomStringConvertible, Sendable {
    public let description: String
    init(_ description: String) { self.description = description }
}

/// Resume tokens now live in RowstreamKit; this name keeps `@testable import Dashboard` users (tests, fuzz
/// targets) compiling.
typealias ResumeToken = RowstreamKit.ResumeToken
