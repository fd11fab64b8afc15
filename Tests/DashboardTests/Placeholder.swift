import Testing
@testable import Dashboard
