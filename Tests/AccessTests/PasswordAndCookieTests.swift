import Access
import Foundation
import Sealing
import Testing

@Suite("Access: crypt(3) passwords, the session cookie, the Cookie header, the sign-in throttle")
struct PasswordAndCookieTests {
    @Test("libcrypt's yescrypt and bcrypt verify the right password only; other hashes are refused")
    func passwords() throws {
        let hash = try #require(PasswordHash.make("correct horse"))
        #expect(hash.hasPrefix("$y$"))
        #expect(PasswordHash.verify("correct horse", hash: hash))
        #expect(!PasswordHash.verify("correct hors", hash: hash) && !PasswordHash.verify("", hash: hash))
        #expect(PasswordHash.make("correct horse") != hash, "a fresh salt each time")
        // bcrypt, cost 4: crypt("password", "$2b$04$abcdefghijklmnopqrstuu") (Python's crypt module on Debian 12).
        let bcrypt = "$2b$04$abcdefghijklmnopqrstuughE8Ev8uGFaUgY2cNEySvxngrb/Jzdm"
        #expect(PasswordHash.isSupported(bcrypt))
        #expect(PasswordHash.verify("password", hash: bcrypt) && !PasswordHash.verify("passwore", hash: bcrypt))
        for unsupported in ["", "plain", "$1$salt$hash", "$6$salt$hash", "$5$x$y", "*"] {
            #expect(!PasswordHash.isSupported(unsupported) && !PasswordHash.verify(unsupported, hash: unsupported))
        }
        #expect(!PasswordHash.verify("correct horse\u{0}", hash: hash))
        #expect(UserAccount(name: "a|b", passwordHash: hash) == nil && UserAccount(name: "a", passwordHash: "x") == nil)
    }

    @Test("the cookie opens for its user until it expires; altered, foreign-key or other-scope values do not")
    func sessionCookie() throws {
        let keys = try SealingKeys(current: Array(repeating: 7, count: 32))
        let sealed = SessionCookie.seal(user: "alice", expires: Date(timeIntervalSinceNow: 60), keys: keys)
        #expect(SessionCookie.open(sealed, keys: keys, now: Date()) == "alice")
        #expect(SessionCookie.open(sealed, keys: keys, now: Date(timeIntervalSinceNow: 61)) == nil, "expired")
        var bytes = Array(sealed.utf8)
        for index in [0, bytes.count / 2, bytes.count - 1] {
            let saved = bytes[index]
            bytes[index] = saved == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
            #expect(SessionCookie.open(String(decoding: bytes, as: UTF8.self), keys: keys, now: Date()) == nil)
            bytes[index] = saved
        }
        let other = try SealingKeys(current: Array(repeating: 8, count: 32))
        #expect(SessionCookie.open(sealed, keys: other, now: Date()) == nil, "another server's key")
        let rotated = try SealingKeys(current: Array(repeating: 8, count: 32), previous: [Array(repeating: 7, count: 32)])
        #expect(SessionCookie.open(sealed, keys: rotated, now: Date()) == "alice", "a previous key opens it during rotation")
        #expect(SessionCookie.open(keys.seal("v1|alice|99999999999", scope: "resume:t"), keys: keys, now: Date()) == nil,
                "a token sealed for another scope is no cookie")
        #expect(SessionCookie.open("", keys: keys, now: Date()) == nil)
        #expect(SessionCookie.open(String(repeating: "A", count: 5_000), keys: keys, now: Date()) == nil)
    }

    @Test("Cookie header: the named cookie's first value; quotes removed; oversized refused")
    func cookieHeader() {
        #expect(CookieHeader.value(named: "s", in: "a=1; s=xyz; s=other") == "xyz")
        #expect(CookieHeader.value(named: "s", in: "s=\"q\"") == "q")
        #expect(CookieHeader.value(named: "s", in: "ss=1;xs=2") == nil)
        #expect(CookieHeader.value(named: "s", in: "s") == nil)
        #expect(CookieHeader.value(named: "s", in: "a=1;s=") == "")
        #expect(CookieHeader.value(named: "s", in: "s=" + String(repeating: "a", count: 4_097)) == nil)
        #expect(CookieHeader.value(named: "s", in: String(repeating: "a=b; ", count: 2_000) + "s=1") == nil)
    }

    @Test("the throttle refuses a user after its failures, and an address after its own; memory stays bounded")
    func throttle() {
        var limits = LoginThrottle.Limits()
        limits.perUser = 3
        limits.perAddress = 5
        limits.capacity = 8
        let throttle = LoginThrottle(limits: limits)
        let start = ContinuousClock.now
        func fail(_ user: String, _ address: UInt32) {
            guard case .success(let attempt) = throttle.reserve(user: user, address: address, now: start) else { return }
            throttle.settle(attempt, failed: true, now: start)
        }
        for _ in 0..<3 { fail("alice", 1) }
        #expect(throttle.wait(user: "alice", address: 2, now: start) != nil, "the user, from anywhere")
        #expect(throttle.wait(user: "bob", address: 1, now: start) == nil)
        #expect(throttle.wait(user: "alice", address: 2, now: start + .seconds(15 * 60)) == nil, "the window ended")
        for name in ["b", "c"] { fail(name, 1) }
        #expect(throttle.wait(user: "fresh", address: 1, now: start) != nil, "the address, for any name")
        if case .success(let attempt) = throttle.reserve(user: "alice", address: 3, now: start + .seconds(15 * 60)) {
            throttle.settle(attempt, failed: false, now: start + .seconds(15 * 60))
        }
        #expect(throttle.wait(user: "alice", address: 3, now: start) == nil)
        for index in 0..<100 { fail("spray\(index)", UInt32(100 + index)) }
        #expect(throttle.trackedCount <= 2 * limits.capacity)
    }

    @Test("an attempt is counted before its check: places run out at the limit while none has settled, and come back")
    func reservesBeforeChecking() throws {
        var limits = LoginThrottle.Limits()
        limits.perUser = 5
        let throttle = LoginThrottle(limits: limits)
        let now = ContinuousClock.now
        let decisions = (0..<40).map { _ in throttle.reserve(user: "alice", address: 1, now: now) }
        let granted = decisions.compactMap { try? $0.get() }
        #expect(granted.count == 5, "40 attempts in flight, none settled: 5 may check")
        #expect(throttle.wait(user: "alice", address: 1, now: now) == .seconds(1), "busy, not yet failed")
        throttle.settle(granted[0], failed: false, now: now)
        let again = try #require(try? throttle.reserve(user: "alice", address: 1, now: now).get(), "a settled place comes back")
        for attempt in granted.dropFirst() + [again] { throttle.settle(attempt, failed: true, now: now) }
        let wait = try #require(throttle.wait(user: "alice", address: 1, now: now))
        #expect(wait > .seconds(60), "5 failures: the window holds")
    }
}
