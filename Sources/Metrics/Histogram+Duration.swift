extension Histogram {
    /// Records `duration` in seconds.
    public func observe(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        observe(Double(seconds) + Double(attoseconds) / 1e18)
    }

    /// Records the seconds from `start` to now.
    public func observe(since start: ContinuousClock.Instant) {
        observe(start.duration(to: .now))
    }
}
