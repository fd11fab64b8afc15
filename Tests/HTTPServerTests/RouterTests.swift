import Testing
@testable import HTTPServer

@Suite struct RouterTests {
    func body(_ result: HTTPResult) -> (Int, String, HTTPHeaders) {
        guard case .now(let response) = result, case .bytes(let bytes) = response.body else { return (0, "", [:]) }
        return (response.status.code, String(decoding: bytes, as: UTF8.self), response.headers)
    }

    func router() -> Router {
        var builder = RouterBuilder()
        builder.get("/tables/{name}/stream") { _, parameters in .now(.text("stream \(parameters["name"] ?? "-")")) }
        builder.post("/tables/{name}/sessions/{id}/next") { _, parameters in
            .now(.text("next \(parameters["name"] ?? "-") \(parameters["id"] ?? "-")", status: .accepted))
        }
        builder.get("/fail") { _, _ throws(HTTPError) in throw HTTPError(.badGateway, "upstream down") }
        builder.get("/") { _, _ in .now(.text("root")) }
        return builder.build()
    }

    @Test func matchesParametersAndDecodesThem() {
        let (status, text, _) = body(router().respond(to: HTTPRequest(method: .get, target: "/tables/a%20b%2Fc/stream?x=1")))
        #expect(status == 200)
        #expect(text == "stream a b/c")
        let (postStatus, postText, _) = body(router().respond(to: HTTPRequest(method: .post, target: "/tables/t/sessions/42/next")))
        #expect(postStatus == 202)
        #expect(postText == "next t 42")
        #expect(body(router().respond(to: HTTPRequest(method: .get, target: "/"))).1 == "root")
    }

    @Test func answers404And405WithAllow() {
        #expect(body(router().respond(to: HTTPRequest(method: .get, target: "/nope"))).0 == 404)
        #expect(body(router().respond(to: HTTPRequest(method: .get, target: "/tables/a/stream/extra"))).0 == 404)
        let (status, _, headers) = body(router().respond(to: HTTPRequest(method: .post, target: "/tables/a/stream")))
        #expect(status == 405)
        #expect(headers["Allow"] == "GET, HEAD")
        let (getStatus, _, getHeaders) = body(router().respond(to: HTTPRequest(method: .get, target: "/tables/a/sessions/1/next")))
        #expect(getStatus == 405)
        #expect(getHeaders["Allow"] == "POST")
    }

    @Test func getRoutesAnswerHead() {
        #expect(body(router().respond(to: HTTPRequest(method: .head, target: "/tables/x/stream"))).0 == 200)
    }

    @Test func thrownErrorsBecomePlainText() {
        let (status, text, headers) = body(router().respond(to: HTTPRequest(method: .get, target: "/fail")))
        #expect(status == 502)
        #expect(text == "upstream down\n")
        #expect(headers["Content-Type"] == "text/plain; charset=utf-8")
    }

    @Test func malformedPercentEncodingIs400() {
        #expect(body(router().respond(to: HTTPRequest(method: .get, target: "/tables/%zz/stream"))).0 == 400)
    }

    @Test func fallbackAnswersUnmatchedPaths() {
        var builder = RouterBuilder()
        builder.get("/a") { _, _ in .now(.text("a")) }
        builder.fallback(ClosureResponder { request in .now(.text("fallback \(request.path)")) })
        let router = builder.build()
        #expect(body(router.respond(to: HTTPRequest(method: .get, target: "/zzz"))).1 == "fallback /zzz")
        #expect(body(router.respond(to: HTTPRequest(method: .get, target: "/a"))).1 == "a")
    }
}
