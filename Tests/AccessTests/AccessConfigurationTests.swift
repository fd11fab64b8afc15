import Access
import Foundation
import Testing

@Suite("Access: mode selection, the loopback rule, allow lists")
struct AccessConfigurationTests {
    static let token = APIToken(name: "ci", sha256: APIToken.hash("secret-token"), groups: ["ops"])!

    @Test("without a mode: none on loopback (and in-process); any other address refuses, saying how to choose")
    func modeChoice() throws {
        let unset = AccessConfiguration()
        #expect(try unset.validated(host: "127.0.0.1", tables: ["t"], pages: []) == .open)
        #expect(try unset.validated(host: nil, tables: ["t"], pages: []) == .open)
        let error = #expect(throws: AccessError.self) {
            try unset.validated(host: "0.0.0.0", tables: ["t"], pages: [])
        }
        #expect(error?.description.contains("--access") == true)
        #expect(error?.description.contains("\"access\"") == true)
        #expect(try AccessConfiguration(mode: .open).validated(host: "0.0.0.0", tables: ["t"], pages: []) == .open)
    }

    @Test("each mode needs what it uses; rules need viewers and served names")
    func consistency() throws {
        #expect(throws: AccessError.self) { try AccessConfiguration(mode: .tokens).validated(host: nil, tables: [], pages: []) }
        #expect(throws: AccessError.self) { try AccessConfiguration(mode: .proxy).validated(host: nil, tables: [], pages: []) }
        var none = AccessConfiguration(mode: .open)
        none.tables["t"] = AllowList(users: ["a"])
        #expect(throws: AccessError.self) { try none.validated(host: nil, tables: ["t"], pages: []) }
        var tokens = AccessConfiguration(mode: .tokens)
        tokens.tokens = [Self.token]
        tokens.tables["nope"] = AllowList(users: ["a"])
        #expect(throws: AccessError.self) { try tokens.validated(host: nil, tables: ["t"], pages: []) }
        tokens.tables = ["t": AllowList(users: ["a"])]
        tokens.pages["p"] = AllowList()
        #expect(throws: AccessError.self) { try tokens.validated(host: nil, tables: ["t"], pages: []) }
        #expect(try tokens.validated(host: "0.0.0.0", tables: ["t"], pages: ["p"]) == .tokens)
    }

    @Test("allow lists admit named users and group members; a page needs its tables' lists too")
    func allowLists() {
        var access = AccessConfiguration(mode: .tokens)
        access.tables["secret"] = AllowList(users: ["alice"], groups: ["ops"])
        access.pages["board"] = AllowList(groups: ["staff"])
        let alice = Viewer(name: "alice"), bob = Viewer(name: "bob", groups: ["ops", "staff"]), eve = Viewer(name: "eve")
        #expect(access.admits(table: "secret", alice) && access.admits(table: "secret", bob))
        #expect(!access.admits(table: "secret", eve) && access.admits(table: "open", eve))
        #expect(access.admits(table: "secret", .everyone))
        #expect(!access.admits(page: "board", showing: ["open"], alice), "not in staff")
        #expect(access.admits(page: "board", showing: ["open", "secret"], bob))
        #expect(!access.admits(page: "other", showing: ["open", "secret"], eve), "a forbidden table forbids the page")
        #expect(access.admits(page: "other", showing: ["open"], eve))
        #expect(!access.pageFollowsTable(page: "other", showing: ["open", "secret"], table: "open"))
        #expect(access.pageFollowsTable(page: "other", showing: ["open", "secret"], table: "secret"),
                "whoever sees secret sees the open table too: secret's page may link it")
        #expect(access.pageFollowsTable(page: "other", showing: ["open"], table: "open"))
        #expect(!access.pageFollowsTable(page: "board", showing: ["open"], table: "open"))
    }
}
