import CCurl

/// libcurl's process-wide initialisation, done once before the first handle is made.
///
/// Thread-safe (a Swift `static let` initialises exactly once).
enum CurlGlobal {
    /// The result of `curl_global_init`; read it to make sure initialisation happened.
    static let initialized: Bool = curl_global_init(ccurl_global_all()) == CURLE_OK
}
