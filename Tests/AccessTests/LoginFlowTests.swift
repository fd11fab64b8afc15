import Access
import Foundation
import HTTPServer
import HTTPServerTesting
import Sealing
import Locking
import TestSupport
import Testing

/// Mode `users` over a responder that answers with the viewer: sign-in, cookies, redirects, sign-out, brute force.
@Suite("Access: users, the login page and the session cookie")
struct LoginFlowTests {
    static let keys = try! SealingKeys(current: Array(repeating: 3, count: 32))

    static func responder(limits: LoginThrottle.Limits = LoginThrottle.Limits(), secure: Bool = false,
                          checker: PasswordChecker = .crypt) throws -> InProcessClient {
        var access = AccessConfiguration(mode: .users)
        let hash = try #require(PasswordHash.make("wonderland"))
        access.users = [try #require(UserAccount(name: "alice", passwordHash: hash, groups: ["staff"]))]
        access.tokens = [APIToken(name: "ci", sha256: APIToken.hash("ci-token"))!]
        access.loginLimits = limits
        access.secureCookies = secure
        let echo = ClosureResponder { request in .now(.text("\(request.path) viewer=\(Viewer.current.name)")) }
        var responder = AccessResponder(inner: echo, configuration: access, mode: .users, tables: [], pages: [:],
                                        keys: keys)
        responder.passwordChecker = checker
        return InProcessClient(responder)
    }

    static func form(_ fields: [(String, String)]) -> [UInt8] {
        let allowed = CharacterSet.alphanumerics
        return Array(fields.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: allowed)!)" }
            .joined(separator: "&").utf8)
    }

    static func signIn(_ client: InProcessClient, user: String = "alice", password: String, next: String = "/tables/x")
        async -> InProcessResponse {
        await client.post("/login", headers: ["Content-Type": "application/x-www-form-urlencoded"],
                          body: form([("user", user), ("password", password), ("next", next)]))
    }

    @Test("a browser's page request goes to /login; streams and POSTs get 401; the form is escaped and script-free")
    func unauthenticated() async throws {
        let client = try Self.responder()
        let page = await client.get("/tables/x?p.sort=a b", headers: ["Accept": "text/html,application/xhtml+xml"])
        #expect(page.status == .seeOther)
        #expect(page.headers["Location"] == "/login?next=/tables/x%3Fp.sort%3Da%20b")
        #expect(await client.get("/tables/x/stream", headers: ["Accept": "text/event-stream"]).status == .unauthorized)
        #expect(await client.post("/tables/x/refresh").status == .unauthorized)
        #expect(await client.get("/api/tables").status == .unauthorized)
        let form = await client.get("/login?next=%2Ftables%2F%22%3E%3Cscript%3E")
        #expect(form.status == .ok && form.headers["Cache-Control"] == "no-store")
        #expect(form.text.contains("value=\"/tables/&quot;&gt;&lt;script&gt;\""), "next is escaped")
        #expect(!form.text.contains("<script") && !form.text.contains("style=") && !form.text.contains("<style"))
        #expect(await client.get("/login?next=//evil.example/").text.contains("name=\"next\" value=\"/\""),
                "only local paths: another host's becomes /")
        #expect(await client.get("/app.css").status == .ok, "the login page's stylesheet")
    }

    @Test("signing in sets an HttpOnly, SameSite=Lax cookie and goes to next; the cookie names the viewer; sign-out clears it")
    func signInAndOut() async throws {
        let client = try Self.responder()
        let answer = await Self.signIn(client, password: "wonderland")
        #expect(answer.status == .seeOther && answer.headers["Location"] == "/tables/x")
        let setCookie = try #require(answer.headers["Set-Cookie"])
        #expect(setCookie.hasPrefix("rowstream_session=") && setCookie.contains("; HttpOnly; SameSite=Lax"))
        #expect(setCookie.contains("Max-Age=43200") && !setCookie.contains("Secure"))
        let cookie = String(setCookie.prefix { $0 != ";" })
        let viewed = await client.get("/tables/x/stream", headers: ["Cookie": "other=1; \(cookie)"])
        #expect(viewed.status == .ok && viewed.text == "/tables/x/stream viewer=alice")
        #expect(await client.get("/login", headers: ["Cookie": cookie]).text.contains("Signed in as alice"))
        let out = await client.post("/logout", headers: ["Cookie": cookie])
        #expect(out.status == .seeOther && out.headers["Location"] == "/login")
        #expect(out.headers["Set-Cookie"]?.hasPrefix("rowstream_session=; Path=/; Max-Age=0; HttpOnly") == true)
        let secure = await Self.signIn(try Self.responder(secure: true), password: "wonderland")
        #expect(secure.headers["Set-Cookie"]?.hasSuffix("; Secure") == true)
    }

    @Test("X-Forwarded-Proto (Secure cookies) and X-Forwarded-For (the throttle's address) count from a trusted proxy only")
    func forwardedProto() async throws {
        var access = AccessConfiguration(mode: .users)
        let hash = try #require(PasswordHash.make("pw"))
        access.users = [try #require(UserAccount(name: "alice", passwordHash: hash))]
        access.proxy = TrustedProxy(addresses: [IPv4Address.parse("127.0.0.2")!])
        let responder = AccessResponder(inner: ClosureResponder { _ in .now(.text("")) }, configuration: access,
                                        mode: .users, tables: [], pages: [:], keys: Self.keys)
        for (peer, secure) in [("127.0.0.2", true), ("127.0.0.1", false)] {
            var built = HTTPRequest(method: .post, target: "/login", headers: ["X-Forwarded-Proto": "https"],
                                    body: Self.form([("user", "alice"), ("password", "pw")]))
            built.peerAddress = IPv4Address.parse(peer)
            let request = built
            let answer = await InProcessClient(ClosureResponder { _ in responder.respond(to: request) }).post("/login")
            #expect(answer.status == .seeOther)
            #expect(answer.headers["Set-Cookie"]?.hasSuffix("; Secure") == secure, "from \(peer)")
        }
        func address(_ peer: String, _ forwarded: String) -> UInt32 {
            var request = HTTPRequest(method: .post, target: "/login", headers: ["X-Forwarded-For": forwarded])
            request.peerAddress = IPv4Address.parse(peer)
            return responder.clientAddress(request)
        }
        #expect(address("127.0.0.2", "1.2.3.4, 10.0.0.7") == IPv4Address.parse("10.0.0.7"),
                "behind the proxy: the client it saw (the last entry)")
        #expect(address("127.0.0.1", "10.0.0.7") == IPv4Address.parse("127.0.0.1"), "anyone else's claim is ignored")
        #expect(address("127.0.0.2", "garbage") == IPv4Address.parse("127.0.0.2"))
        var twice = HTTPRequest(method: .post, target: "/login")
        twice.headers.add(name: "X-Forwarded-For", value: "1.2.3.4")   // the client's claim
        twice.headers.add(name: "X-Forwarded-For", value: "10.0.0.7")   // a proxy that adds its own field
        twice.peerAddress = IPv4Address.parse("127.0.0.2")
        #expect(responder.clientAddress(twice) == IPv4Address.parse("10.0.0.7"), "the last entry of the last field")
    }

    @Test("missing, wrong, expired and tampered cookies get 401 (303 for a browser page); tokens still work")
    func badCookies() async throws {
        let client = try Self.responder()
        let expired = SessionCookie.seal(user: "alice", expires: Date(timeIntervalSinceNow: -1), keys: Self.keys)
        let valid = SessionCookie.seal(user: "alice", expires: Date(timeIntervalSinceNow: 600), keys: Self.keys)
        var tampered = Array(valid.utf8)
        tampered[tampered.count / 2] = tampered[tampered.count / 2] == UInt8(ascii: "x") ? UInt8(ascii: "y") : UInt8(ascii: "x")
        let foreign = SessionCookie.seal(user: "alice", expires: Date(timeIntervalSinceNow: 600),
                                         keys: try SealingKeys(current: Array(repeating: 9, count: 32)))
        let ghost = SessionCookie.seal(user: "mallory", expires: Date(timeIntervalSinceNow: 600), keys: Self.keys)
        for value in ["", "garbage", expired, String(decoding: tampered, as: UTF8.self), foreign, ghost] {
            let headers: HTTPHeaders = ["Cookie": "rowstream_session=\(value)"]
            #expect(await client.get("/tables/x/stream", headers: headers).status == .unauthorized)
            #expect(await client.post("/tables/x/refresh", headers: headers).status == .unauthorized)
            var page = headers
            page.add(name: "Accept", value: "text/html")
            #expect(await client.get("/tables/x", headers: page).status == .seeOther)
        }
        #expect(await client.get("/tables/x", headers: ["Cookie": "rowstream_session=\(valid)"]).status == .ok)
        #expect(await client.get("/x", headers: ["Authorization": "Bearer ci-token"]).text == "/x viewer=ci")
    }

    @Test("brute force: after 5 failures for a user, even the right password gets 429 with Retry-After, unchecked")
    func bruteForce() async throws {
        let client = try Self.responder()
        for attempt in 0..<5 {
            let wrong = await Self.signIn(client, password: "guess\(attempt)")
            #expect(wrong.status == .unauthorized && wrong.text.contains("Wrong user name or password"))
            #expect(wrong.headers["Set-Cookie"] == nil)
        }
        let limited = await Self.signIn(client, password: "wonderland")
        #expect(limited.status == .tooManyRequests && limited.headers["Set-Cookie"] == nil)
        #expect(Int(limited.headers["Retry-After"] ?? "") ?? 0 > 0)
        var limits = LoginThrottle.Limits()
        limits.perAddress = 3
        let byAddress = try Self.responder(limits: limits)
        for name in ["a", "b", "c"] { _ = await Self.signIn(byAddress, user: name, password: "x") }
        #expect(await Self.signIn(byAddress, password: "wonderland").status == .tooManyRequests,
                "one address trying many names is limited too")
        #expect(await Self.signIn(client, user: "nobody", password: "x").text.contains("Wrong user name or password"),
                "an unknown name is answered as a wrong password")
    }

    @Test("40 wrong passwords at once for one name get 5 password checks (each attempt counted before its check), 35 get 429")
    func concurrentAttempts() async throws {
        let gate = CheckGate(total: 40)
        let client = try Self.responder(checker: PasswordChecker { _, _ in
            await gate.enter()
            return false
        })
        // A bound, not a synchronisation: a broken gate opens after it instead of hanging the run.
        let bound = Task {
            try? await Task.sleep(for: .seconds(30 * TestTime.scale))
            gate.open()
        }
        defer { bound.cancel() }
        let statuses = await withTaskGroup(of: HTTPStatus.self) { group in
            for attempt in 0..<40 { group.addTask { await Self.signIn(client, password: "guess\(attempt)").status } }
            var statuses: [HTTPStatus] = []
            for await status in group {
                statuses.append(status)
                gate.answered()
            }
            return statuses
        }
        #expect(gate.checks == 5, "the checks are held until every attempt is checked or answered")
        #expect(statuses.filter { $0 == .unauthorized }.count == 5)
        #expect(statuses.filter { $0 == .tooManyRequests }.count == 35)
    }
}

/// Holds every password check until each of `total` sign-ins has either reached its check or been answered, so all
/// of them are in flight at once however the tasks are scheduled; counts the checks.
private final class CheckGate: Sendable {
    private struct State {
        var checks = 0
        var answered = 0
        var isOpen = false
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let total: Int
    private let state = Lock(State())  // a `Lock`, not a `Mutex`: ThreadSanitizer sees its hand-overs (Fuzz/tsan.supp)

    init(total: Int) {
        self.total = total
    }

    var checks: Int { state.withLock { $0.checks } }

    /// A check arrives: it waits for the gate to open.
    func enter() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let release = state.withLock { state in
                state.checks += 1
                state.waiting.append(continuation)
                return Self.release(&state, total: total)
            }
            release.forEach { $0.resume() }
        }
    }

    /// A sign-in was answered.
    func answered() {
        state.withLock { state in
            state.answered += 1
            return Self.release(&state, total: total)
        }.forEach { $0.resume() }
    }

    /// Opens the gate now.
    func open() {
        state.withLock { state in
            state.isOpen = true
            return Self.release(&state, total: total)
        }.forEach { $0.resume() }
    }

    private static func release(_ state: inout State, total: Int) -> [CheckedContinuation<Void, Never>] {
        guard state.isOpen || state.checks + state.answered >= total else { return [] }
        state.isOpen = true
        defer { state.waiting = [] }
        return state.waiting
    }
}
