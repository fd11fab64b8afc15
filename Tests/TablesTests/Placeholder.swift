import Testing
@testable import Tables
