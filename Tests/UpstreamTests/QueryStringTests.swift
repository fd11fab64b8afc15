import Testing
@testable import Upstream

/// Query parameters added to page URLs.
@Suite struct QueryStringTests {
    @Test func keepsUnreservedAndEncodesEverythingElse() {
        #expect(QueryString.encode("aZ09-._~") == "aZ09-._~")
        #expect(QueryString.encode("a b&c=d/e?f#g+h%") == "a%20b%26c%3Dd%2Fe%3Ff%23g%2Bh%25")
        #expect(QueryString.encode("é") == "%C3%A9")
    }

    @Test func appendsToAURLWithoutQuery() {
        let url = QueryString.url("https://api.test/items", setting: [("limit", "50"), ("cursor", "a/b")])
        #expect(url == "https://api.test/items?limit=50&cursor=a%2Fb")
    }

    @Test func appendsToAnExistingQueryReplacingSameNames() {
        let url = QueryString.url("https://api.test/items?sort=name&limit=10&x", setting: [("limit", "50")])
        #expect(url == "https://api.test/items?sort=name&x&limit=50")
    }

    @Test func keepsTheFragmentLast() {
        let url = QueryString.url("https://api.test/items?a=1#top", setting: [("cursor", "c")])
        #expect(url == "https://api.test/items?a=1&cursor=c#top")
    }

    @Test func handlesATrailingQuestionMark() {
        #expect(QueryString.url("https://api.test/items?", setting: [("limit", "5")]) == "https://api.test/items?limit=5")
    }
}
