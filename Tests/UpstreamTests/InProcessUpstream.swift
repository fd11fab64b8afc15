import Locking
import Testing
@testable import Upstream

/// The fixture upstream without a socket: an ``UpstreamTransport`` that answers each request from a handler of the
/// fixture server's shape (`FixtureRequest` in, `FixtureReply` out), in the calling task. A page source, cache or
/// walk built on it runs in-process; tests whose point is the wire (timeouts, body caps, libcurl's redirects, TLS,
/// protocols, redaction on the wire) keep the `FixtureServer` and the `UpstreamClient`.
///
/// It keeps the transport contract: a non-2xx answer is returned; a redirect is returned with its absolute
/// `redirectURL` (the page source follows it); a request that fails validation throws before the handler sees it;
/// a cancelled caller gets `.cancelled`. It logs every request (`requests`, numbered from 1, a `host` header
/// added as a client would), so a test counts fetches. A `.held(gate, reply)` waits at the gate (a held request:
/// shared fetches, refresh races); `.hang` waits until the caller is cancelled. The socket-level replies (`.raw`,
/// `.reset`, `.closeMidBody`, `.chunked`, `.slow`) are not its job: it records an issue and
/// fails them as a refused connection.
///
/// Thread-safe (one `Lock`). `fetch` may be called from any task; the handler runs in a task of its own (so that
/// `stop()` can end a held reply) and must not block its thread.
final class InProcessUpstream: UpstreamTransport {
    /// The origin its URLs use; nothing listens there.
    let baseURL: String
    private let handler: @Sendable (FixtureRequest) -> FixtureReply
    private struct State {
        var requests: [FixtureRequest] = []
        var answering: [Int: Task<Result<UpstreamResponse, UpstreamError>, Never>] = [:]
        var stopped = false
    }
    private let state = Lock(State())

    init(baseURL: String = "http://upstream.test", handler: @escaping @Sendable (FixtureRequest) -> FixtureReply) {
        self.baseURL = baseURL
        self.handler = handler
    }

    /// Every request received so far, in order.
    var requests: [FixtureRequest] { state.withLock { $0.requests } }

    /// Ends every request still held or hanging (its caller gets `.cancelled`); later ones get `.shutdown`. Call it
    /// at the end of each test (`defer`), as a fixture server's `stop()`, so a failed test leaves nothing waiting.
    func stop() {
        let answering = state.withLock { state in
            state.stopped = true
            return state.answering.values
        }
        for task in answering { task.cancel() }
    }

    func fetch(_ request: UpstreamRequest) async throws(UpstreamError) -> UpstreamResponse {
        try request.validate()
        if Task.isCancelled { throw .cancelled }
        // The reply is worked out in a task of its own, so that `stop()` can end it as the caller's cancellation does.
        let started = state.withLock { state -> (number: Int, task: Task<Result<UpstreamResponse, UpstreamError>, Never>)? in
            guard !state.stopped else { return nil }
            var received = Self.fixtureRequest(request)
            received.number = state.requests.count + 1
            state.requests.append(received)
            let task = Task { [self] () -> Result<UpstreamResponse, UpstreamError> in
                do throws(UpstreamError) { return .success(try await answer(handler(received), to: request)) } catch {
                    return .failure(error)
                }
            }
            state.answering[received.number] = task
            return (received.number, task)
        }
        guard let (number, task) = started else { throw .shutdown }
        let outcome = await withTaskCancellationHandler { await task.value } onCancel: { task.cancel() }
        state.withLock { $0.answering[number] = nil }
        return try outcome.get()
    }

    private func answer(_ reply: FixtureReply, to request: UpstreamRequest) async throws(UpstreamError) -> UpstreamResponse {
        switch reply {
        case .respond(let status, let headers, let body):
            let lowered = headers.map { (name: $0.name.lowercased(), value: $0.value) }
            return UpstreamResponse(status: status, headers: lowered, body: body, effectiveURL: request.url)
        case .held(let gate, let next):
            guard await gate.pass() else { throw .cancelled }
            return try await answer(next, to: request)
        case .hang:
            _ = await ReplyGate().pass()   // never released: returns when the caller is cancelled
            throw .cancelled
        case .redirect(let location, let headers):
            guard let target = UpstreamOrigin.resolve(location, against: request.url) else { throw .invalidURL }
            var response = try await answer(.respond(status: 302, headers: headers + [("Location", location)], body: []),
                                             to: request)
            response.redirectURL = target
            guard request.followRedirects else { return response }
            var followed = request
            followed.url = target
            return try await fetch(followed)
        case .raw, .reset, .closeMidBody, .chunked, .slow:
            Issue.record("a socket-level reply: use the FixtureServer and the UpstreamClient")
            throw .connectionFailed
        }
    }

    /// The request as the fixture server would have logged it: the URL's path and query as the target, header
    /// names lower-cased, a `host` header first.
    private static func fixtureRequest(_ request: UpstreamRequest) -> FixtureRequest {
        let afterScheme = request.url.range(of: "://").map { request.url[$0.upperBound...] } ?? request.url[...]
        let slash = afterScheme.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? afterScheme.endIndex
        let target = String(afterScheme[slash...])
        let headers = [(name: "host", value: String(afterScheme[..<slash]))]
            + request.headers.map { (name: $0.name.lowercased(), value: $0.value) }
        return FixtureRequest(method: request.method, target: target.hasPrefix("/") ? target : "/" + target,
                              headers: headers, body: request.body ?? [])
    }
}
