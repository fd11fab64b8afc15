import TestSupport
import Testing
@testable import RowstreamKit

/// The keyed diff on its own.
@Suite struct LiveDiffTests {
    static func rows(_ spec: String) -> [LiveRow] {
        spec.split(separator: " ").map { token in
            let parts = token.split(separator: "=")
            return LiveRow(key: String(parts[0]), html: Array((parts.count > 1 ? parts[1] : parts[0]).utf8))
        }
    }

    @Test func insertsUpdatesAndRemoves() {
        let diff = LiveDiff(old: Self.rows("a b c d e"), new: Self.rows("x a b=B d"), newIsWholeList: false)
        #expect(diff.inserted.map(\.key) == ["x"])
        #expect(diff.updated == Self.rows("b=B"))
        #expect(diff.removed == ["c"], "e may just have left the head: not removed")
        let whole = LiveDiff(old: Self.rows("a b c d e"), new: Self.rows("x a b=B d"), newIsWholeList: true)
        #expect(whole.removed == ["c", "e"], "the whole list: anything missing is gone")
    }

    @Test func rowsComingUpFromBelowAreNotInserts() {
        let diff = LiveDiff(old: Self.rows("a b c"), new: Self.rows("b c d"), newIsWholeList: false)
        #expect(diff.inserted.isEmpty && diff.removed == ["a"])
        #expect(LiveDiff(old: Self.rows("a"), new: Self.rows("x y"), newIsWholeList: false).inserted.map(\.key) == ["x", "y"],
                "nothing shared: all new")
    }

    @Test func duplicateKeysTheLaterWins() {
        #expect(LiveDiff.unique(Self.rows("a=1 b a=2")) == Self.rows("b a=2"))
        let diff = LiveDiff(old: Self.rows("a b"), new: Self.rows("a=1 b a=2 b"), newIsWholeList: true)
        #expect(diff.updated == Self.rows("a=2"))
        #expect(diff.inserted.isEmpty && diff.removed.isEmpty)
    }

    @Test func nothingChanged() {
        #expect(LiveDiff(old: Self.rows("a b"), new: Self.rows("a b"), newIsWholeList: false).isEmpty)
    }
}
