import Foundation

/// How much longer than written every bound of the test support is: `ROWSTREAM_TEST_TIME_SCALE` (a whole number,
/// 1...20; 1 when unset). `Scripts/sanitize` sets it, since a sanitizer build runs several times slower and a
/// 30 s bound that is generous for a plain build is not for it. Bounds are safety nets, never measurements: a
/// passing test takes as long as before, a failing one fails later.
public enum TestTime {
    /// The factor, read once.
    public static let scale: Int = {
        guard let text = ProcessInfo.processInfo.environment["ROWSTREAM_TEST_TIME_SCALE"],
              let value = Int(text) else { return 1 }
        return min(max(value, 1), 20)
    }()
}
