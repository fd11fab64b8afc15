import CCurl

extension UpstreamError {
    /// Maps a failed transfer's `CURLcode` to an error; `bodyCapHit` says the write callback refused
    /// more bytes (libcurl then reports a write error).
    static func from(curlCode code: CURLcode, bodyCapHit: Bool) -> UpstreamError {
        if bodyCapHit { return .bodyTooLarge }
        switch code {
        case CURLE_OPERATION_TIMEDOUT:
            return .timedOut
        case CURLE_COULDNT_RESOLVE_PROXY, CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_CONNECT, CURLE_SSL_CONNECT_ERROR:
            return .connectionFailed
        case CURLE_PARTIAL_FILE, CURLE_GOT_NOTHING, CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_HTTP2, CURLE_HTTP2_STREAM:
            return .connectionLost
        case CURLE_FILESIZE_EXCEEDED:
            return .bodyTooLarge
        case CURLE_UNSUPPORTED_PROTOCOL:
            return .protocolNotAllowed
        case CURLE_URL_MALFORMAT:
            return .invalidURL
        case CURLE_TOO_MANY_REDIRECTS:
            return .tooManyRedirects
        default:
            return .transferFailed(curlCode: Int(code.rawValue))
        }
    }

    /// The label reported to ``UpstreamObserver`` for a transfer that ended with this error.
    var observerOutcome: UpstreamObserver.Outcome {
        switch self {
        case .timedOut: return .timeout
        case .bodyTooLarge: return .tooLarge
        case .cancelled: return .cancelled
        case .shutdown: return .shutdown
        default: return .error
        }
    }
}
