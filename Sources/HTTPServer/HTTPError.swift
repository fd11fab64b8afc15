/// The one HTTP-facing error: a status plus a short plain-text message shown to the client.
///
/// The message is sent as `text/plain` with control characters removed, so it cannot inject markup or headers.
/// Never put raw request input or internal details in it. Thread-safe: a value type.
public struct HTTPError: Error, Sendable, Equatable {
    public var status: HTTPStatus
    public var message: String

    public init(_ status: HTTPStatus, _ message: String) {
        self.status = status
        self.message = message
    }

    /// The plain-text response for this error.
    public var response: HTTPResponse {
        let clean = String(String.UnicodeScalarView(message.unicodeScalars.filter {
            $0 == "\n" || !($0.properties.generalCategory == .control)
        }))
        return .text(clean.hasSuffix("\n") ? clean : clean + "\n", status: status)
    }

    /// ``response`` with the fields of `headers` added (replacing any of the same name).
    public func response(with headers: HTTPHeaders) -> HTTPResponse {
        var response = response
        for field in headers { response.headers.replaceOrAdd(name: field.name, value: field.value) }
        return response
    }
}
