/// Why a ``RowstreamServer`` could not start (a bad table name, a missing page template, a port in use). Each kind
/// is a static member (compare with `==`); ``description`` is a message that names what failed. Thread-safe: an
/// immutable value.
public struct RowstreamError: Error, CustomStringConvertible, Sendable, Equatable {
    private enum Code: Sendable, Equatable {
        case noTables
        case tableName(String)
        case duplicateTable(String)
        case batchSize(table: String, size: Int)
        case pageName(String)
        case duplicatePage(String)
        case pageTableCount(page: String, maximum: Int, count: Int)
        case pageListsTableTwice(String)
        case pageUnknownTable(page: String, table: String)
        case frameAncestor(String)
        case allowedOrigin(String)
        case templateUnreadable(path: String)
        case templatePlaceholder(path: String, placeholder: String)
        case publicDirectory(path: String, reason: String)
        case listen(host: String, port: Int, reason: String)
    }

    private let code: Code
    private init(_ code: Code) { self.code = code }

    /// `start` was given no table bindings.
    public static let noTables = RowstreamError(.noTables)
    /// A table name that is not 1-64 letters, digits, `-` or `_`.
    public static func tableName(_ name: String) -> RowstreamError { RowstreamError(.tableName(name)) }
    /// Two tables with one name.
    public static func duplicateTable(_ name: String) -> RowstreamError { RowstreamError(.duplicateTable(name)) }
    /// A table's batch size outside 1...500.
    public static func batchSize(table: String, _ size: Int) -> RowstreamError {
        RowstreamError(.batchSize(table: table, size: size))
    }
    /// A dashboard page name that is not 1-64 letters, digits, `-` or `_`.
    public static func pageName(_ name: String) -> RowstreamError { RowstreamError(.pageName(name)) }
    /// Two dashboard pages with one name.
    public static func duplicatePage(_ name: String) -> RowstreamError { RowstreamError(.duplicatePage(name)) }
    /// A dashboard page with no tables or more than `maximum`.
    public static func pageTableCount(page: String, maximum: Int, _ count: Int) -> RowstreamError {
        RowstreamError(.pageTableCount(page: page, maximum: maximum, count: count))
    }
    /// A dashboard page that names one table twice.
    public static func pageListsTableTwice(_ page: String) -> RowstreamError { RowstreamError(.pageListsTableTwice(page)) }
    /// A dashboard page that names a table the server does not serve.
    public static func pageUnknownTable(page: String, _ table: String) -> RowstreamError {
        RowstreamError(.pageUnknownTable(page: page, table: table))
    }
    /// A `frameAncestors` entry that is not a CSP source.
    public static func frameAncestor(_ source: String) -> RowstreamError { RowstreamError(.frameAncestor(source)) }
    /// An `allowedOrigins` entry that is not an origin.
    public static func allowedOrigin(_ origin: String) -> RowstreamError { RowstreamError(.allowedOrigin(origin)) }
    /// A page template (`index.html`, `page.html`) that cannot be read.
    public static func templateUnreadable(path: String) -> RowstreamError { RowstreamError(.templateUnreadable(path: path)) }
    /// A page template without its placeholder.
    public static func templatePlaceholder(path: String, _ placeholder: String) -> RowstreamError {
        RowstreamError(.templatePlaceholder(path: path, placeholder: placeholder))
    }
    /// The public directory cannot be served.
    public static func publicDirectory(_ path: String, _ error: any Error) -> RowstreamError {
        RowstreamError(.publicDirectory(path: path, reason: "\(error)"))
    }
    /// The server cannot listen on the address.
    public static func listen(host: String, port: Int, _ error: any Error) -> RowstreamError {
        RowstreamError(.listen(host: host, port: port, reason: "\(error)"))
    }

    /// What failed, for a person to read.
    public var description: String {
        switch code {
        case .noTables: "no tables to serve"
        case .tableName(let name): "table name \"\(name)\" must be 1-64 letters, digits, - or _"
        case .duplicateTable(let name): "two tables are named \"\(name)\""
        case .batchSize(let table, let size): "table \(table): batch size must be 1...500, not \(size)"
        case .pageName(let name): "page name \"\(name)\" must be 1-64 letters, digits, - or _"
        case .duplicatePage(let name): "two pages are named \"\(name)\""
        case .pageTableCount(let page, let maximum, let count): "page \(page): 1...\(maximum) tables, not \(count)"
        case .pageListsTableTwice(let page): "page \(page) lists a table twice"
        case .pageUnknownTable(let page, let table): "page \(page): no table named \"\(table)\""
        case .frameAncestor(let source):
            "frame-ancestors: '\(source)' is not a CSP source ('none', 'self', a scheme or a host)"
        case .allowedOrigin(let origin): "allowedOrigins: '\(origin)' is not an origin (http(s)://host[:port])"
        case .templateUnreadable(let path): "cannot read the page template \(path)"
        case .templatePlaceholder(let path, let placeholder): "\(path) has no \(placeholder) placeholder"
        case .publicDirectory(let path, let reason): "cannot serve \(path): \(reason)"
        case .listen(let host, let port, let reason): "cannot listen on \(host):\(port): \(reason)"
        }
    }
}
