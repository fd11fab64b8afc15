import Sealing

/// The part of a walk's dedup memory that travels with its position (``WalkPosition``, inside the sealed resume
/// token): the walk's hash key and the hashes of the last keys it read, so a walk resumed on another connection or
/// another instance drops the same repeats as the walk it continues.
///
/// Size: a 16-byte SipHash key plus 8 bytes per key hash, at most ``capacity`` hashes (528 bytes, 704 characters
/// of base64url before sealing). Two different keys share a hash with a chance of about 2^-64 per pair; the key is
/// random per walk and never leaves the server unsealed, so an upstream cannot choose keys that collide.
///
/// Thread-safe: a value type.
public struct KeyWindow: Sendable, Equatable {
    /// The most key hashes a window carries: the last keys read, in read order.
    public static let capacity = 64

    let hasher: SipHash
    /// At most ``capacity`` hashes, oldest first.
    let hashes: [UInt64]

    init(hasher: SipHash, hashes: [UInt64]) {
        self.hasher = hasher
        self.hashes = Array(hashes.suffix(Self.capacity))
    }

    /// The window as bytes: the hash key (k0, k1), then each hash, all little-endian 64-bit words.
    var bytes: [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(8 * (2 + hashes.count))
        for word in [hasher.k0, hasher.k1] + hashes {
            withUnsafeBytes(of: word.littleEndian) { bytes.append(contentsOf: $0) }
        }
        return bytes
    }

    /// A window from ``bytes``; nil unless whole words, a key and at most ``capacity`` hashes.
    init?(bytes: [UInt8]) {
        guard bytes.count % 8 == 0, bytes.count >= 16, bytes.count <= 8 * (2 + Self.capacity) else { return nil }
        let words = stride(from: 0, to: bytes.count, by: 8).map { start in
            bytes[start..<start + 8].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        }
        self.init(hasher: SipHash(k0: words[0], k1: words[1]), hashes: Array(words.dropFirst(2)))
    }
}

extension KeyWindow: Codable {
    /// One base64url string (``bytes``).
    public init(from decoder: Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let bytes = Base64URL.decode(text[...]), let window = KeyWindow(bytes: bytes) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "bad key window"))
        }
        self = window
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(Base64URL.encode(bytes))
    }
}
