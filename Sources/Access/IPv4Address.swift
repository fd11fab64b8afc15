/// Dotted-quad IPv4 addresses as the server sees its peers (``HTTPRequest/peerAddress``: host byte order), and
/// which listening addresses are loopback.
///
/// Thread-safe: stateless.
public enum IPv4Address {
    /// `a.b.c.d` (each 0-255, no leading zeros but `0` itself) as a host-order number; nil for anything else.
    public static func parse(_ text: String) -> UInt32? {
        let parts = text.utf8.split(separator: 0x2E, omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var value: UInt32 = 0
        for part in parts {
            guard (1...3).contains(part.count), part.allSatisfy({ (0x30...0x39).contains($0) }),
                  part.count == 1 || part.first != 0x30
            else { return nil }
            let number = part.reduce(UInt32(0)) { $0 * 10 + UInt32($1 - 0x30) }
            guard number <= 255 else { return nil }
            value = value << 8 | number
        }
        return value
    }

    /// Whether a server listening on `host` is reachable from this machine only: `127.0.0.0/8`, `localhost`, `::1`.
    public static func isLoopback(host: String) -> Bool {
        if host == "localhost" || host == "::1" || host == "[::1]" { return true }
        guard let address = parse(host) else { return false }
        return address >> 24 == 127
    }
}
