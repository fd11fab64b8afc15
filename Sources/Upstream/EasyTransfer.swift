import CCurl

/// One libcurl easy handle and the response it is collecting.
///
/// - Important: confined to the client's worker thread: made, driven and destroyed there only.
///   libcurl's callbacks reach it through `Unmanaged` userdata; it must stay alive while the handle
///   is in the multi handle (the worker keeps it in its table until it removes the handle).
final class EasyTransfer {
    /// The `CURL *` handle, owned: cleaned up in `deinit`.
    let handle: UnsafeMutableRawPointer
    /// The fetch this transfer serves.
    let ticket: TransferTicket
    /// When the transfer was started (for the observer).
    let started = ContinuousClock.now

    private let maxBodyBytes: Int
    private let maxDecompressionRatio: Int
    private let decompressionCheckBytes: Int
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private(set) var body: [UInt8] = []
    private(set) var headers: [(name: String, value: String)] = []
    /// Set when the write callback refused bytes past `maxBodyBytes`.
    private(set) var bodyCapHit = false

    /// Creates and configures an easy handle for `ticket.request`.
    init(ticket: TransferTicket, configuration: UpstreamClientConfiguration) throws(UpstreamError) {
        try ticket.request.validate()
        guard let handle = curl_easy_init() else { throw .transferFailed(curlCode: Int(CURLE_OUT_OF_MEMORY.rawValue)) }
        self.handle = handle
        self.ticket = ticket
        self.maxBodyBytes = configuration.maxBodyBytes
        self.maxDecompressionRatio = configuration.maxDecompressionRatio
        self.decompressionCheckBytes = configuration.decompressionCheckBytes
        try configure(configuration)
    }

    deinit {
        curl_easy_cleanup(handle)
        curl_slist_free_all(headerList)
    }

    /// Ends the transfer libcurl reports done with `code`: its response is made from what the callbacks wrote here (or
    /// the error `code` stands for) and the awaiting fetch resumed with it (the ticket's continuation), reported first.
    /// Call after the engine removed the handle from the multi handle.
    func finish(code: CURLcode, observer: UpstreamObserver?) {
        finish(outcome(code: code), observer: observer)
    }

    /// Ends the transfer with `outcome` (a cancellation, the shutdown): `observer` is told, then the fetch resumed.
    func finish(_ outcome: TransferTicket.Outcome, observer: UpstreamObserver?) {
        if let observer {
            let elapsed = started.duration(to: .now)
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            let label: UpstreamObserver.Outcome
            switch outcome {
            case .success(let response): label = response.isSuccess ? .ok : .httpError
            case .failure(let error): label = error.observerOutcome
            }
            observer.requestFinished(label.rawValue, seconds)
        }
        ticket.fetch.resume(returning: outcome)
    }

    /// The finished transfer's response, or the error libcurl's `code` stands for.
    private func outcome(code: CURLcode) -> TransferTicket.Outcome {
        guard code == CURLE_OK else { return .failure(.from(curlCode: code, bodyCapHit: bodyCapHit)) }
        var status = 0
        _ = ccurl_easy_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        var urlPointer: UnsafeMutablePointer<CChar>?
        _ = ccurl_easy_getinfo_string(handle, CURLINFO_EFFECTIVE_URL, &urlPointer)
        let effectiveURL = urlPointer.map { String(cString: $0) } ?? ticket.request.url
        var response = UpstreamResponse(status: status, headers: headers, body: body, effectiveURL: effectiveURL)
        if !ticket.request.followRedirects, (300..<400).contains(status) {
            var redirectPointer: UnsafeMutablePointer<CChar>?
            _ = ccurl_easy_getinfo_string(handle, CURLINFO_REDIRECT_URL, &redirectPointer)
            response.redirectURL = redirectPointer.map { String(cString: $0) }
        }
        return .success(response)
    }

    // MARK: Callbacks (called by libcurl on the worker thread, inside curl_multi_perform)

    /// Appends body bytes; refuses (returns 0, aborting the transfer) past the size cap, which also
    /// covers chunked and compressed bodies that CURLOPT_MAXFILESIZE_LARGE cannot see in advance, and past the
    /// decompression ratio (decoded bytes here against the bytes received, CURLINFO_SIZE_DOWNLOAD_T).
    fileprivate func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Int {
        let decoded = body.count + bytes.count
        guard decoded <= maxBodyBytes, decoded <= decompressionCheckBytes || !inflatesTooFar(decoded) else {
            bodyCapHit = true
            return 0
        }
        body.append(contentsOf: bytes)
        return bytes.count
    }

    /// libcurl counts a read's bytes after it has delivered what they decode to, so the count lags by at most
    /// one read buffer (16 KiB); 0 means the first read is still being decoded.
    private func inflatesTooFar(_ decoded: Int) -> Bool {
        var received: curl_off_t = 0
        guard ccurl_easy_getinfo_off(handle, CURLINFO_SIZE_DOWNLOAD_T, &received) == CURLE_OK else { return false }
        return decoded / max(Int(received), 1) > maxDecompressionRatio
    }

    /// Collects one header line. A status line starts a new response (after a redirect or a 1xx),
    /// so only the last response's headers are kept.
    fileprivate func receiveHeaderLine(_ bytes: UnsafeRawBufferPointer) -> Int {
        let line = String(decoding: bytes, as: UTF8.self).trimmingHTTPWhitespace()
        if line.hasPrefix("HTTP/") {
            headers.removeAll()
        } else if let colon = line.firstIndex(of: ":") {
            let name = line[..<colon].lowercased().trimmingHTTPWhitespace()
            let value = String(line[line.index(after: colon)...]).trimmingHTTPWhitespace()
            headers.append((name: name, value: value))
        }
        return bytes.count
    }
}

// MARK: - Configuration

extension EasyTransfer {
    private func configure(_ configuration: UpstreamClientConfiguration) throws(UpstreamError) {
        let request = ticket.request
        let timeoutMS = Self.milliseconds(request.timeout)
        try set(CURLOPT_URL, request.url)
        try set(CURLOPT_NOSIGNAL, 1)
        try set(CURLOPT_PROTOCOLS_STR, "http,https")
        try set(CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        try set(CURLOPT_FOLLOWLOCATION, request.followRedirects ? 1 : 0)
        try set(CURLOPT_MAXREDIRS, configuration.maxRedirects)
        try set(CURLOPT_USERAGENT, configuration.userAgent)
        try set(CURLOPT_TIMEOUT_MS, timeoutMS)
        try set(CURLOPT_CONNECTTIMEOUT_MS, min(Self.milliseconds(configuration.connectTimeout), timeoutMS))
        try set(CURLOPT_LOW_SPEED_LIMIT, max(1, configuration.lowSpeedBytesPerSecond))
        try set(CURLOPT_LOW_SPEED_TIME, max(1, configuration.lowSpeedSeconds))
        try set(CURLOPT_ACCEPT_ENCODING, "")  // "" = every encoding this libcurl can decode
        try check(ccurl_easy_setopt_off(handle, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(configuration.maxBodyBytes)))
        try configureMethodAndBody(request)
        try configureHeaders(request)
        try configureCallbacks()
    }

    private static func milliseconds(_ duration: Duration) -> Int {
        max(1, Int(duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000))
    }

    private func configureMethodAndBody(_ request: UpstreamRequest) throws(UpstreamError) {
        let method = request.method.uppercased()
        if let body = request.body {
            try check(ccurl_easy_setopt_off(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count)))
            // COPYPOSTFIELDS copies the bytes now, so no pointer outlives this scope.
            let code = body.isEmpty
                ? ccurl_easy_setopt_string(handle, CURLOPT_COPYPOSTFIELDS, "")
                : body.withUnsafeBytes { ccurl_easy_setopt_pointer(handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: $0.baseAddress)) }
            try check(code)
            if method != "POST" { try set(CURLOPT_CUSTOMREQUEST, request.method) }
        } else if method == "GET" {
            try set(CURLOPT_HTTPGET, 1)
        } else if method == "HEAD" {
            try set(CURLOPT_NOBODY, 1)
        } else if method == "POST" {
            try check(ccurl_easy_setopt_off(handle, CURLOPT_POSTFIELDSIZE_LARGE, 0))
            try set(CURLOPT_COPYPOSTFIELDS, "")
        } else {
            try set(CURLOPT_CUSTOMREQUEST, request.method)
        }
    }

    private func configureHeaders(_ request: UpstreamRequest) throws(UpstreamError) {
        // "Expect:" with no value stops libcurl waiting for a 100 Continue before large bodies.
        let lines = request.headers.map { "\($0.name): \($0.value)" } + ["Expect:"]
        for line in lines {
            guard let appended = curl_slist_append(headerList, line) else {
                throw .transferFailed(curlCode: Int(CURLE_OUT_OF_MEMORY.rawValue))
            }
            headerList = appended
        }
        try check(ccurl_easy_setopt_slist(handle, CURLOPT_HTTPHEADER, headerList))
    }

    private func configureCallbacks() throws(UpstreamError) {
        let userdata = Unmanaged.passUnretained(self).toOpaque()
        try check(ccurl_easy_setopt_data_callback(handle, CURLOPT_WRITEFUNCTION) { data, size, count, userdata in
            guard let userdata else { return 0 }
            let transfer = Unmanaged<EasyTransfer>.fromOpaque(userdata).takeUnretainedValue()
            return transfer.receiveBody(UnsafeRawBufferPointer(start: data, count: size * count))
        })
        try check(ccurl_easy_setopt_pointer(handle, CURLOPT_WRITEDATA, userdata))
        try check(ccurl_easy_setopt_data_callback(handle, CURLOPT_HEADERFUNCTION) { data, size, count, userdata in
            guard let userdata else { return 0 }
            let transfer = Unmanaged<EasyTransfer>.fromOpaque(userdata).takeUnretainedValue()
            return transfer.receiveHeaderLine(UnsafeRawBufferPointer(start: data, count: size * count))
        })
        try check(ccurl_easy_setopt_pointer(handle, CURLOPT_HEADERDATA, userdata))
    }

    private func set(_ option: CURLoption, _ value: Int) throws(UpstreamError) {
        try check(ccurl_easy_setopt_long(handle, option, value))
    }

    private func set(_ option: CURLoption, _ value: String) throws(UpstreamError) {
        try check(ccurl_easy_setopt_string(handle, option, value))  // libcurl copies strings
    }

    private func check(_ code: CURLcode) throws(UpstreamError) {
        guard code == CURLE_OK else { throw .from(curlCode: code, bodyCapHit: false) }
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces, tabs, CR and LF.
    func trimmingHTTPWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" || $0 == "\r\n" }
        guard let start = firstIndex(where: { !isSpace($0) }), let end = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[start...end])
    }
}
