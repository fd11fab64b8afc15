import Locking
import Testing
@testable import Upstream

/// Basic request/response behaviour against the fixture server.
@Suite struct UpstreamClientTests {
    @Test func getReturnsStatusHeadersAndBody() async throws {
        let server = try FixtureServer { request in
            .respond(status: 200, headers: [("X-Fixture", "yes"), ("Content-Type", "application/json")],
                     body: Array("{\"path\":\"\(request.path)\"}".utf8))
        }
        defer { server.stop() }
        let client = try UpstreamClient()
        defer { client.shutdown() }

        let response = try await client.fetch(UpstreamRequest(url: server.baseURL + "/things?x=1"))

        #expect(response.status == 200)
        #expect(response.header("X-FIXTURE") == "yes")
        #expect(response.headers.allSatisfy { $0.name == $0.name.lowercased() })
        #expect(String(decoding: response.body, as: UTF8.self) == "{\"path\":\"/things\"}")
        #expect(response.effectiveURL == server.baseURL + "/things?x=1")
        #expect(server.requests.first?.method == "GET")
        #expect(server.requests.first?.header("user-agent") == "Rowstream/0.1")
    }

    @Test func postSendsHeadersAndBody() async throws {
        let server = try FixtureServer { request in .respond(status: 201, headers: [], body: request.body) }
        defer { server.stop() }
        let client = try UpstreamClient()
        defer { client.shutdown() }
        var request = UpstreamRequest(url: server.baseURL + "/items")
        request.method = "POST"
        request.headers = [("X-Api-Key", "k-123"), ("Content-Type", "application/octet-stream")]
        request.body = [0, 1, 2, 255, 13, 10, 0]

        let response = try await client.fetch(request)

        #expect(response.status == 201)
        #expect(response.body == [0, 1, 2, 255, 13, 10, 0])
        let received = try #require(server.requests.first)
        #expect(received.method == "POST")
        #expect(received.header("x-api-key") == "k-123")
        #expect(received.body == [0, 1, 2, 255, 13, 10, 0])
    }

    @Test(arguments: ["PUT", "DELETE"])
    func otherMethodsReachTheServer(method: String) async throws {
        let server = try FixtureServer { _ in .respond(status: 204, headers: [], body: []) }
        defer { server.stop() }
        let client = try UpstreamClient()
        defer { client.shutdown() }
        var request = UpstreamRequest(url: server.baseURL + "/x")
        request.method = method
        request.body = method == "PUT" ? Array("v".utf8) : nil

        let response = try await client.fetch(request)

        #expect(response.status == 204)
        #expect(server.requests.first?.method == method)
        #expect(server.requests.first?.body == (method == "PUT" ? Array("v".utf8) : []))
    }

    @Test func non2xxIsReturnedNotThrown() async throws {
        let server = try FixtureServer { _ in .json("{\"error\":\"boom\"}", status: 500) }
        defer { server.stop() }
        let client = try UpstreamClient()
        defer { client.shutdown() }

        let response = try await client.fetch(UpstreamRequest(url: server.baseURL + "/"))

        #expect(response.status == 500)
        #expect(!response.isSuccess)
        #expect(String(decoding: response.body, as: UTF8.self) == "{\"error\":\"boom\"}")
    }

    @Test func slowAnswerWithinTimeoutSucceeds() async throws {
        let server = try FixtureServer { _ in .slow(.milliseconds(100), .json("[]")) }
        defer { server.stop() }
        let client = try UpstreamClient()
        defer { client.shutdown() }

        let response = try await client.fetch(UpstreamRequest(url: server.baseURL + "/slow"))

        #expect(response.status == 200)
        #expect(response.body == Array("[]".utf8))
    }

    @Test func sequentialRequestsReuseTheConnection() async throws {
        let server = try FixtureServer { _ in .json("{}") }
        defer { server.stop() }
        let client = try UpstreamClient()
        defer { client.shutdown() }

        for index in 0..<3 {
            _ = try await client.fetch(UpstreamRequest(url: server.baseURL + "/\(index)"))
        }

        #expect(server.requests.count == 3)
        #expect(server.connectionsAccepted == 1)
    }

    @Test func observerHearsEachOutcome() async throws {
        let server = try FixtureServer { request in request.path == "/bad" ? .json("{}", status: 404) : .json("{}") }
        defer { server.stop() }
        let outcomes = Lock<[String]>([])
        let observer = UpstreamObserver { outcome, seconds in
            precondition(seconds >= 0)
            outcomes.withLock { $0.append(outcome) }
        }
        let client = try UpstreamClient(observer: observer)
        defer { client.shutdown() }

        _ = try await client.fetch(UpstreamRequest(url: server.baseURL + "/good"))
        _ = try await client.fetch(UpstreamRequest(url: server.baseURL + "/bad"))

        #expect(outcomes.withLock { $0 } == ["ok", "http_error"])
    }
}
