import Testing
@testable import Metrics
