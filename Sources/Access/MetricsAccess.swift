import Sealing

/// Who may read `/metrics` (its series name every table): its own API tokens (SHA-256, as ``APIToken``) and
/// peer addresses (a Prometheus server's). Without one, `/metrics` answers only a viewer every table and page
/// admits (anyone in access mode `none`).
///
/// Thread-safe: a value.
public struct MetricsAccess: Sendable, Equatable {
    public var tokens: [APIToken]
    /// IPv4 addresses (host byte order) that read `/metrics` without a token.
    public var addresses: Set<UInt32>

    public init(tokens: [APIToken] = [], addresses: Set<UInt32> = []) {
        self.tokens = tokens
        self.addresses = addresses
    }
}
