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
/// Thread rules: a value confined to one loop (its ``ServerLoop``'s).
struct StreamHeadCache {
    private var status: HTTPStatus?
    private var plain: [HTTPHeaders.Element] = []
    private var encoded: EncodedHeaderFields?
    private var head: [UInt8] = []

    /// The head of a stream response (no `Content-Length`, `Connection: close` as ``ResponseHead`` writes it).
    mutating func head(of response: HTTPResponse) -> [UInt8] {
        if status == response.status, Self.same(plain, response.headers.plainFields),
           Self.same(encoded, response.headers.encoded) {
            return head
        }
        head = ResponseHead.encode(response, contentLength: nil, close: true, keepAliveHeader: false)
        status = response.status
        plain = response.headers.plainFields
        encoded = response.headers.encoded
        return head
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
