/// The last event-stream response head a loop encoded, and what it was encoded from. A storm's arrivals all get the
/// same head: the same status and the very same header arrays (the stream's fields, built once, and the server's
/// security headers, encoded once). So the head is encoded once and its array shared, not encoded per response
/// (about 3,100 instructions and an allocation each, callgrind, `Scripts/bench storm`).
///
/// A response has the cached head when its status is the cached one and its header arrays are the cached ones
/// themselves: the plain fields' storage (held here, so no other array can take its address while it is compared
/// against, and shared, so nobody can change it in place) and the encoded fields' storage. Anything else, a field
/// added or changed on the way (a CORS answer's), is a new array: the head is encoded again and kept instead.
///
/// The head is kept with the coding the response goes out in, one per coding the client accepts: whether a stream is
/// gzip-coded depends on its status and fields only (``HTTPResponse/coded(for:)``), so that choice is made once too.
/// Making it per arrival (reading `Content-Type`, `Cache-Control` and the rest) and encoding the two fields it adds
/// cost a gzip viewer about 14,600 instructions (callgrind, `Scripts/bench arrivals --storm-encoding gzip`).
///
/// Thread rules: a value confined to one loop (its ``ServerLoop``'s).
struct StreamHeadCache {
    /// One kept head: what it was made from and what it is.
    private struct Slot {
        var status: HTTPStatus
        var plain: [HTTPHeaders.Element]
        var encoded: EncodedHeaderFields?
        var head: [UInt8]
        var coding: ContentCoding
    }

    /// For a client that accepts identity only, and for one that accepts gzip.
    private var identity: Slot?
    private var gzip: Slot?

    /// The head of a stream response (no `Content-Length`, `Connection: close` as ``ResponseHead`` writes it) as it
    /// goes to a client accepting `accepted`, and the coding its body is then written in
    /// (``HTTPResponse/coded(for:)``).
    mutating func head(of response: HTTPResponse,
                       accepting accepted: ContentCoding) -> (head: [UInt8], coding: ContentCoding) {
        switch accepted {
        case .identity: return Self.head(of: response, accepting: accepted, in: &identity)
        case .gzip: return Self.head(of: response, accepting: accepted, in: &gzip)
        }
    }

    private static func head(of response: HTTPResponse, accepting accepted: ContentCoding,
                             in slot: inout Slot?) -> (head: [UInt8], coding: ContentCoding) {
        if let kept = slot, kept.status == response.status, same(kept.plain, response.headers.plainFields),
           same(kept.encoded, response.headers.encoded) {
            return (kept.head, kept.coding)
        }
        let (coded, coding) = response.coded(for: accepted)
        let head = ResponseHead.encode(coded, contentLength: nil, close: true, keepAliveHeader: false)
        slot = Slot(status: response.status, plain: response.headers.plainFields, encoded: response.headers.encoded,
                    head: head, coding: coding)
        return (head, coding)
    }

    /// Whether `a` and `b` are one array (one storage), or both empty.
    private static func same(_ a: [HTTPHeaders.Element], _ b: [HTTPHeaders.Element]) -> Bool {
        guard a.count == b.count else { return false }
        if a.isEmpty { return true }
        return a.withUnsafeBufferPointer { a in b.withUnsafeBufferPointer { b in a.baseAddress == b.baseAddress } }
    }

    private static func same(_ a: EncodedHeaderFields?, _ b: EncodedHeaderFields?) -> Bool {
        switch (a, b) {
        case (nil, nil): true
        case (let a?, let b?): a.isSame(as: b)
        default: false
        }
    }
}
