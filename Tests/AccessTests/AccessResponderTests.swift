import Access
import Foundation
import HTTPServer
import HTTPServerTesting
import Testing
import TestSupport

/// The access layer over a responder that answers with the viewer it was given.
@Suite("Access: the responder in front of the routes")
struct AccessResponderTests {
    static let echo = ClosureResponder { request in
        let viewer = Viewer.current
        return .now(.text(viewer.isEveryone ? "everyone" : "\(viewer.name) \(viewer.groups.sorted())"))
    }

    static func configuration(_ mode: AccessMode) -> AccessConfiguration {
        var access = AccessConfiguration(mode: mode)
        access.tokens = [
            APIToken(name: "ci", sha256: APIToken.hash("good-token"), groups: ["ops"])!,
            APIToken(name: "old", sha256: APIToken.hash("old-token"), expires: Date(timeIntervalSinceNow: -60))!,
        ]
        access.proxy = TrustedProxy(addresses: [IPv4Address.parse("127.0.0.2")!])
        access.tables["t"] = AllowList(users: ["ci"])
        return access
    }

    static func responder(_ mode: AccessMode, metrics: MetricsAccess? = nil) -> AccessResponder {
        var access = configuration(mode)
        access.metrics = metrics
        return AccessResponder(inner: echo, configuration: access, mode: mode, tables: ["t", "u"], pages: [:])
    }

    static func answer(_ responder: AccessResponder, _ path: String = "/x", headers: HTTPHeaders = [:],
                       peer: String? = nil) async -> InProcessResponse {
        var built = HTTPRequest(method: .get, target: path, headers: headers)
        built.peerAddress = peer.flatMap(IPv4Address.parse)
        let request = built
        return await InProcessClient(ClosureResponder { _ in responder.respond(to: request) }).get(path)
    }

    @Test("tokens: a valid Bearer token names its viewer; missing, wrong, expired and tampered ones get 401")
    func tokens() async {
        let access = Self.responder(.tokens)
        let good = await Self.answer(access, headers: ["Authorization": "Bearer good-token"])
        #expect(good.status == .ok && good.text == "ci [\"ops\"]")
        let missing = await Self.answer(access)
        #expect(missing.status == .unauthorized)
        #expect(missing.headers["WWW-Authenticate"] == "Bearer realm=\"rowstream\"")
        for header in ["Bearer wrong-token", "Bearer old-token", "Bearer good-tokeN", "Bearer good-token-",
                       "Basic Z29vZC10b2tlbg==", "Bearer", "Bearer " + APIToken.hash("good-token")] {
            let refused = await Self.answer(access, headers: ["Authorization": header])
            #expect(refused.status == .unauthorized, "\(header)")
            #expect(refused.headers["WWW-Authenticate"]?.contains("invalid_token") == true)
            #expect(!refused.text.contains("ci") && !refused.text.contains("old"), "names no token")
        }
        #expect(await Self.answer(access, "/healthz").status == .ok, "health checks need no credential")
    }

    @Test("the viewer is bound in a .later answer too; outside the layer it is nobody, whom allow lists refuse")
    func binding() async throws {
        let later = ClosureResponder { _ in .later { .text("later=\(Viewer.current.name)") } }
        let access = AccessResponder(inner: later, configuration: Self.configuration(.tokens), mode: .tokens,
                                     tables: ["t"], pages: [:])
        let answer = await InProcessClient(access).get("/x", headers: ["Authorization": "Bearer good-token"])
        #expect(answer.text == "later=ci")
        // A `.later` answer that is a stream (a reconnect's) opens with the viewer bound too.
        let laterStream = ClosureResponder { _ in
            .later { .eventStream { writer in writer.send(SSEEvent(event: "who", data: Viewer.current.name)) } }
        }
        let streaming = AccessResponder(inner: laterStream, configuration: Self.configuration(.tokens), mode: .tokens,
                                        tables: ["t"], pages: [:])
        let stream = await InProcessClient(streaming).get("/x", headers: ["Authorization": "Bearer good-token"]).stream
        #expect(try await stream?.next(named: "who").event.data == "ci")
        stream?.close()
        #expect(Viewer.current == .nobody && !Viewer.current.isEveryone)
        #expect(!Self.configuration(.tokens).admits(table: "t") && Self.configuration(.tokens).admits(table: "open"))
    }

    @Test("none: everyone, without a credential")
    func none() async {
        let open = AccessResponder(inner: Self.echo, configuration: AccessConfiguration(mode: .open), mode: .open,
                                   tables: ["t"], pages: [:])
        #expect(await Self.answer(open).text == "everyone")
    }

    @Test("proxy: identity headers count only from a configured proxy address; a spoof from elsewhere is 401")
    func proxy() async {
        let access = Self.responder(.proxy)
        let headers: HTTPHeaders = ["X-Forwarded-User": "alice", "X-Forwarded-Groups": "ops, staff ,"]
        let trusted = await Self.answer(access, headers: headers, peer: "127.0.0.2")
        #expect(trusted.status == .ok && trusted.text == "alice [\"ops\", \"staff\"]")
        #expect(await Self.answer(access, headers: headers, peer: "127.0.0.1").status == .unauthorized)
        #expect(await Self.answer(access, headers: headers).status == .unauthorized, "no peer address: not the proxy")
        #expect(await Self.answer(access, headers: ["X-Forwarded-User": " "], peer: "127.0.0.2").status == .unauthorized)
        let token = await Self.answer(access, headers: ["Authorization": "Bearer good-token"], peer: "127.0.0.1")
        #expect(token.text == "ci [\"ops\"]", "API tokens work in proxy mode too")
        #expect(await Self.answer(Self.responder(.tokens), headers: headers, peer: "127.0.0.2").status == .unauthorized,
                "tokens mode believes no proxy")
    }

    @Test("proxy: a user or groups header sent twice (a proxy that appends) is refused with 400, never the first believed")
    func proxyDuplicates() async {
        let access = Self.responder(.proxy)
        var twoUsers = HTTPHeaders()
        twoUsers.add(name: "X-Forwarded-User", value: "admin")   // the client's own, first
        twoUsers.add(name: "x-forwarded-user", value: "alice")   // the proxy's, appended
        let users = await Self.answer(access, headers: twoUsers, peer: "127.0.0.2")
        #expect(users.status == .badRequest && users.text.contains("X-Forwarded-User header came more than once"))
        #expect(!users.text.contains("admin") && !users.text.contains("alice"), "names no value")
        var twoGroups: HTTPHeaders = ["X-Forwarded-User": "alice"]
        twoGroups.add(name: "X-Forwarded-Groups", value: "admins")
        twoGroups.add(name: "X-Forwarded-Groups", value: "ops")
        let groups = await Self.answer(access, headers: twoGroups, peer: "127.0.0.2")
        #expect(groups.status == .badRequest && groups.text.contains("X-Forwarded-Groups header came more than once"))
        #expect(await Self.answer(access, headers: twoUsers, peer: "127.0.0.1").status == .unauthorized,
                "not from the proxy: the headers are ignored, as when sent once")
    }

    @Test("/metrics: its own tokens and addresses when configured; else only a viewer who may see every table")
    func metrics() async {
        let rule = MetricsAccess(tokens: [APIToken(name: "prom", sha256: APIToken.hash("prom-token"))!],
                                 addresses: [IPv4Address.parse("10.0.0.9")!])
        let guarded = Self.responder(.tokens, metrics: rule)
        #expect(await Self.answer(guarded, "/metrics", headers: ["Authorization": "Bearer prom-token"]).status == .ok)
        #expect(await Self.answer(guarded, "/metrics", peer: "10.0.0.9").status == .ok)
        #expect(await Self.answer(guarded, "/metrics", peer: "10.0.0.8").status == .unauthorized)
        #expect(await Self.answer(guarded, "/metrics", headers: ["Authorization": "Bearer good-token"]).status == .unauthorized,
                "a viewer's token is not a metrics token")
        #expect(await Self.answer(guarded, "/x", headers: ["Authorization": "Bearer prom-token"]).status == .unauthorized,
                "a metrics token opens nothing else")
        var access = Self.configuration(.tokens)
        access.tokens.append(APIToken(name: "viewer", sha256: APIToken.hash("viewer-token"))!)
        let plain = AccessResponder(inner: Self.echo, configuration: access, mode: .tokens, tables: ["t", "u"], pages: [:])
        #expect(await Self.answer(plain, "/metrics", headers: ["Authorization": "Bearer good-token"]).status == .ok,
                "ci may see every table")
        #expect(await Self.answer(plain, "/metrics", headers: ["Authorization": "Bearer viewer-token"]).status == .forbidden)
        #expect(await Self.answer(plain, "/metrics").status == .unauthorized)
    }
}
