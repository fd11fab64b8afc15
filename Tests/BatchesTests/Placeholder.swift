import Testing
@testable import Batches
