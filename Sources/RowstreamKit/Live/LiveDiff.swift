/// One rendered row of a live table's head: its key and its `<tr>` bytes.
package struct LiveRow: Sendable, Equatable {
    package let key: String
    package let html: [UInt8]

    package init(key: String, html: [UInt8]) {
        self.key = key
        self.html = html
    }
}

/// The keyed difference between the head of a list as it was sent and as it is now (the identifiable, diffed
/// sections of RxDataSources, for one section): rows to insert at the top, rows to update in place, keys to
/// remove. A pure value, computed once per table per refresh.
struct LiveDiff: Sendable, Equatable {
    /// New keys above the last key both lists share, in list order: they go above everything shown. (New keys
    /// below it came up from further down the list, which the viewer pages through: they are not inserts.)
    var inserted: [LiveRow] = []
    /// Known keys whose row changed.
    var updated: [LiveRow] = []
    /// Known keys that left the list.
    var removed: [String] = []

    var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && removed.isEmpty }

    /// The diff from `old` to `new`. Duplicate keys never fail: within each list the later row wins (it takes the
    /// place of the earlier). `new` is the head only, unless `newIsWholeList`: a key of `old` that is missing from
    /// `new` counts as removed only if it stood above the last key both lists share (below that, it may simply have
    /// been pushed out of the head by inserts).
    init(old: [LiveRow], new: [LiveRow], newIsWholeList: Bool) {
        let before = Self.unique(old)
        let after = Self.unique(new)
        let oldByKey = Dictionary(before.map { ($0.key, $0.html) }, uniquingKeysWith: { _, later in later })
        let newKeys = Set(after.map(\.key))
        let lastSharedNew = after.lastIndex { oldByKey[$0.key] != nil } ?? after.count
        for (position, row) in after.enumerated() {
            guard let previous = oldByKey[row.key] else {
                if position < lastSharedNew { inserted.append(row) }
                continue
            }
            if previous != row.html { updated.append(row) }
        }
        let lastShared = before.lastIndex { newKeys.contains($0.key) } ?? -1
        for (position, row) in before.enumerated() where !newKeys.contains(row.key) {
            if newIsWholeList || position < lastShared { removed.append(row.key) }
        }
    }

    /// `rows` with each key once: the later row of a key wins, in the place of the later one.
    static func unique(_ rows: [LiveRow]) -> [LiveRow] {
        var last: [String: Int] = [:]
        for (position, row) in rows.enumerated() { last[row.key] = position }
        return rows.enumerated().filter { last[$0.element.key] == $0.offset }.map(\.element)
    }
}
