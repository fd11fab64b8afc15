import JSON

/// How a call of ``LiveFeed/refresh(isTicker:)`` ended.
enum RefreshOutcome: Sendable {
    /// The refresh this caller waited for ran (possibly shared with others).
    case done(LiveSummary)
    /// The table's ``RefreshLimit`` has no token left: try again after this long.
    case refused(retryAfter: Duration)
    /// The caller left (cancelled) or the server stopped before it ended.
    case abandoned

    /// The refresh's summary, if it ran.
    var summary: LiveSummary? { if case .done(let summary) = self { summary } else { nil } }
}

/// What one refresh did: the answer of `POST /tables/NAME/refresh`.
struct LiveSummary: Sendable {
    var inserted = 0, updated = 0, removed = 0, viewers = 0
    /// The first refresh only records the head (nothing was sent before to diff against).
    var baseline = false
    var error: String?

    init(viewers: Int = 0, baseline: Bool = false, error: String? = nil) {
        self.viewers = viewers
        self.baseline = baseline
        self.error = error
    }

    init(diff: LiveDiff, viewers: Int) {
        self.init(viewers: viewers)
        inserted = diff.inserted.count
        updated = diff.updated.count
        removed = diff.removed.count
    }

    var json: JSONValue {
        var body: [String: JSONValue] = [
            "inserted": .int(Int64(inserted)), "updated": .int(Int64(updated)), "removed": .int(Int64(removed)),
            "viewers": .int(Int64(viewers)), "baseline": .bool(baseline),
        ]
        if let error { body["error"] = .string(error) }
        return .object(body)
    }
}
