extension PageSource {
    /// Performs `request`, following redirects within the origin and retrying per `retry`. Returns a 2xx
    /// response; throws the last failure otherwise.
    func send(_ request: UpstreamRequest) async throws(UpstreamError) -> UpstreamResponse {
        let retryable = retry.allows(method: request.method)
        var attempt = 1
        while true {
            let failure: UpstreamError
            var retryAfter: Duration? = nil
            do throws(UpstreamError) {
                let response = try await followingRedirects(request)
                if response.isSuccess { return response }
                failure = .httpStatus(response.status)
                retryAfter = response.header("retry-after").flatMap { RetryAfter.parse($0) }
            } catch {
                failure = error
            }
            guard retryable, failure.isRetryable, attempt < retry.maxAttempts,
                  let delay = retry.delay(beforeRetry: attempt, retryAfter: retryAfter, unit: Double.random(in: 0..<1))
            else { throw failure }
            await retry.sleep(delay)
            if Task.isCancelled { throw .cancelled }
            attempt += 1
        }
    }

    /// Performs `request` with libcurl's own redirect following off, following up to `maxRedirects`
    /// redirects itself, each only if it stays within `origin`.
    private func followingRedirects(_ request: UpstreamRequest) async throws(UpstreamError) -> UpstreamResponse {
        var current = request
        current.followRedirects = false
        for _ in 0...Self.maxRedirects {
            let response = try await client.fetch(current)
            guard (300..<400).contains(response.status), let location = response.redirectURL else { return response }
            guard let origin, origin.contains(location) else { throw .offOrigin }
            current.url = location
            let method = current.method.uppercased()
            if response.status == 303 || ((response.status == 301 || response.status == 302) && method == "POST") {
                current.method = "GET"
                current.body = nil
            }
        }
        throw .tooManyRedirects
    }
}
