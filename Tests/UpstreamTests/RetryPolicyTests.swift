import Foundation
import Testing
@testable import Upstream

/// Retry pacing: `Retry-After` in both of its forms, and full-jitter backoff under the cap.
@Suite struct RetryPolicyTests {
    @Test func retryAfterReadsSecondsAndDates() {
        let now = Date(timeIntervalSince1970: 1_700_000_000)  // Tue, 14 Nov 2023 22:13:20 GMT
        #expect(RetryAfter.parse("120", now: now) == .seconds(120))
        #expect(RetryAfter.parse("Tue, 14 Nov 2023 22:13:30 GMT", now: now) == .seconds(10))
        #expect(RetryAfter.parse("Tue, 14 Nov 2023 22:00:00 GMT", now: now) == .zero)
        #expect(RetryAfter.parse("soon", now: now) == nil)
        #expect(RetryAfter.parse("-5", now: now) == nil)
    }

    @Test func backoffIsFullJitterUnderTheCap() {
        var policy = RetryPolicy()
        policy.baseDelay = .milliseconds(100)
        policy.maxDelay = .milliseconds(350)
        #expect(policy.delay(beforeRetry: 1, retryAfter: nil, unit: 0.5) == .milliseconds(50))
        #expect(policy.delay(beforeRetry: 3, retryAfter: nil, unit: 0.999_999)! <= .milliseconds(350))
        #expect(policy.delay(beforeRetry: 3, retryAfter: nil, unit: 0) == .zero)
        #expect(policy.delay(beforeRetry: 1, retryAfter: .seconds(3), unit: 0.5) == .seconds(3))
        #expect(policy.delay(beforeRetry: 1, retryAfter: .seconds(31), unit: 0.5) == nil)
    }
}
