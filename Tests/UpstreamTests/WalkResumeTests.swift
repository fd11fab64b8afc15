import Foundation
import JSON
import Testing
@testable import Upstream

/// A walk resumed from its position (a reconnect, another instance: a new `PageWalker<JSONValue>`) drops the same repeats as
/// the walk it continues (issue 12, item 1); the position's dedup window is bounded and round-trips.
@Suite struct WalkResumeTests {
    static func page(_ ids: ClosedRange<Int>, next: String?) -> UpstreamPage<JSONValue> {
        UpstreamPage<JSONValue>(items: ids.map { ["id": .int(Int64($0))] }, nextCursor: next)
    }

    static func ids(_ page: UpstreamPage<JSONValue>) -> [Int64] { page.items.compactMap { $0["id"]?.intValue } }

    /// SipHash-2-4's reference vectors (key 00 01 ... 0f; messages 00 01 ... of length 0, 8 and 15): the hash is
    /// the same in every process, so any instance reads a window the same way.
    @Test func sipHashMatchesTheReferenceVectors() {
        let hasher = SipHash(k0: 0x0706050403020100, k1: 0x0f0e0d0c0b0a0908)
        let message = (0..<15).map(UInt8.init)
        #expect(message.prefix(0).withUnsafeBytes { hasher.hash($0) } == 0x726fdb47dd0e0e31)
        #expect(message.prefix(8).withUnsafeBytes { hasher.hash($0) } == 0x93f5f5799a932462)
        #expect(message.withUnsafeBytes { hasher.hash($0) } == 0xa129ca6149be45e5)
    }

    @Test func aNewWalkerResumedFromAPositionDropsTheRepeats() async throws {
        let first = PageWalker<JSONValue>(keyPath: try JSONPath("id"))
        let one = try first.admit(Self.page(1...10, next: "a"), from: nil)
        #expect(Self.ids(one).count == 10)
        // What `nextBatch(from:at:)` hands out after that page: the cursor and the window.
        let window = try #require(first.window)
        #expect(window.hashes.count == 10)
        // Through JSON, as inside a sealed resume token.
        let position = WalkPosition(cursor: "a", window: window)
        let data = try JSONEncoder().encode(position)
        let decoded = try JSONDecoder().decode(WalkPosition.self, from: data)
        #expect(decoded == position)

        let resumed = PageWalker<JSONValue>(keyPath: try JSONPath("id"))
        resumed.resume(from: decoded)
        let two = try resumed.admit(Self.page(6...15, next: "b"), from: "a")
        #expect(Self.ids(two) == Array(11...15))
        // A walker without the window shows the repeats (what a reconnect did before).
        let forgetful = PageWalker<JSONValue>(keyPath: try JSONPath("id"))
        #expect(Self.ids(try forgetful.admit(Self.page(6...15, next: "b"), from: "a")) == Array(6...15))
    }

    @Test func theWindowKeepsTheLastKeysReadInOrderAndIsBounded() throws {
        let walker = PageWalker<JSONValue>(keyPath: try JSONPath("id"))
        _ = try walker.admit(Self.page(1...50, next: "a"), from: nil)
        _ = try walker.admit(Self.page(51...100, next: "b"), from: "a")
        let window = try #require(walker.window)
        #expect(window.hashes.count == KeyWindow.capacity)
        // 16 key bytes and 8 per hash: the bound the docs state.
        #expect(window.bytes.count == 16 + 8 * KeyWindow.capacity)
        // The newest 64 keys (37...100) are known to a resumed walk; older ones are not.
        let resumed = PageWalker<JSONValue>(keyPath: try JSONPath("id"))
        resumed.resume(from: WalkPosition(cursor: "b", window: window))
        let next = try resumed.admit(Self.page(30...110, next: "c"), from: "b")
        #expect(Self.ids(next) == Array(30...36) + Array(101...110))
    }

    @Test func malformedWindowsAreRefused() {
        #expect(KeyWindow(bytes: []) == nil)
        #expect(KeyWindow(bytes: Array(repeating: 0, count: 15)) == nil)
        #expect(KeyWindow(bytes: Array(repeating: 0, count: 16 + 8 * (KeyWindow.capacity + 1))) == nil)
        #expect(KeyWindow(bytes: Array(repeating: 0, count: 16 + 8 * 3 + 1)) == nil)
        #expect(KeyWindow(bytes: Array(repeating: 0, count: 16 + 8 * 3))?.hashes.count == 3)
        #expect(throws: DecodingError.self) {
            _ = try JSONDecoder().decode(WalkPosition.self, from: Data(#"{"c":"a","w":"AAAA"}"#.utf8))
        }
    }
}
