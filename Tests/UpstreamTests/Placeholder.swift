import Testing
@testable import Upstream
