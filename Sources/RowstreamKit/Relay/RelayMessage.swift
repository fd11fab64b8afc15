import Sealing

/// The bytes a ``DemandRelay`` carries through a shared store every instance reads (Redis), and their check: each
/// message is bound by ``StoreKey/tag(_:)`` (HMAC-SHA-256 under a key derived from the operator's sealing key) to its
/// kind, its sender and its addressee. So whoever can write to the store cannot forge a demand nor an answer; they can
/// only repeat one they saw, which acts on a session whose id they then already know (and an id lets anyone drive
/// its session over HTTP anyway), or answer a request already answered (matched by a random 64-bit id used once:
/// nothing).
///
/// Layout (integers big-endian): `"RSD1"` or `"RSA1"`, the ``Envelope`` (addressee, 4 bytes; sender, 4; request id,
/// 8), then a demand's kind (1), session id (16), table (2-byte length, bytes) and choice (1-byte count, each parameter
/// and value with a 2-byte length), or an answer's code (1); then the 32-byte tag of everything before it. Pure:
/// thread-safe.
package enum RelayMessage {
    /// One message: from `sender` to `addressee`, about the request of id `request`, carrying `body`.
    package struct Envelope<Body: Equatable & Sendable>: Equatable, Sendable {
        package var addressee: UInt32
        package var sender: UInt32
        package var request: UInt64
        package var body: Body

        package init(addressee: UInt32, sender: UInt32, request: UInt64, body: Body) {
            self.addressee = addressee
            self.sender = sender
            self.request = request
            self.body = body
        }
    }

    /// A demand from `sender` to `addressee`, waiting for the answer of id `request`.
    package typealias Demand = Envelope<RelayedDemand>
    /// The answer of `sender` (the owner) to request `request` of `addressee`.
    package typealias Answer = Envelope<RelayedAnswer>

    /// A message read: a demand, an answer, or nothing (malformed, or its tag does not verify).
    package enum Decoded: Equatable, Sendable {
        case demand(Demand)
        case answer(Answer)
    }

    static let demandMagic = Array("RSD1".utf8), answerMagic = Array("RSA1".utf8)
    /// Longest table name, parameter or value carried (a table name is at most 64 bytes; control values are short).
    static let maxField = 1_024
    static let maxChoices = 32

    package static func encode(_ message: Demand, key: StoreKey) -> [UInt8] {
        var bytes = envelope(message, magic: demandMagic)
        bytes.append(message.body.kind.rawValue)
        bytes += Array(message.body.session.text.utf8)
        bytes.appendField(message.body.table)
        let choice = message.body.choice.sorted { $0.key < $1.key }.prefix(maxChoices)
        bytes.append(UInt8(choice.count))
        for (parameter, value) in choice {
            bytes.appendField(parameter)
            bytes.appendField(value)
        }
        return bytes + key.tag(bytes)
    }

    package static func encode(_ message: Answer, key: StoreKey) -> [UInt8] {
        var bytes = envelope(message, magic: answerMagic)
        bytes.append(message.body.rawValue)
        return bytes + key.tag(bytes)
    }

    /// What every message starts with: `magic`, addressee, sender, request id.
    private static func envelope<Body>(_ message: Envelope<Body>, magic: [UInt8]) -> [UInt8] {
        var bytes = magic
        bytes.append(message.addressee)
        bytes.append(message.sender)
        bytes.append(message.request)
        return bytes
    }

    /// The message in `bytes` if its tag verifies under `key` and it is whole; nil otherwise.
    package static func decode(_ bytes: [UInt8], key: StoreKey) -> Decoded? {
        guard bytes.count > 4 + StoreKey.tagLength else { return nil }
        let body = Array(bytes[..<(bytes.count - StoreKey.tagLength)])
        guard key.verifies(Array(bytes[(bytes.count - StoreKey.tagLength)...]), of: body) else { return nil }
        var reader = Reader(bytes: body, at: 4)
        let magic = Array(body[..<4])
        guard let addressee = reader.u32(), let sender = reader.u32(), let request = reader.u64() else { return nil }
        if magic == answerMagic {
            guard let code = reader.u8(), let answer = RelayedAnswer(rawValue: code), reader.atEnd else { return nil }
            return .answer(Answer(addressee: addressee, sender: sender, request: request, body: answer))
        }
        guard magic == demandMagic, let code = reader.u8(), let kind = RelayedDemand.Kind(rawValue: code),
              let idText = reader.bytes(32), let session = SessionID(String(decoding: idText, as: UTF8.self)),
              let table = reader.field(), let count = reader.u8(), Int(count) <= maxChoices
        else { return nil }
        var choice: [String: String] = [:]
        for _ in 0..<count {
            guard let parameter = reader.field(), let value = reader.field() else { return nil }
            choice[parameter] = value
        }
        guard reader.atEnd else { return nil }
        return .demand(Demand(addressee: addressee, sender: sender, request: request,
                              body: RelayedDemand(kind: kind, table: table, session: session, choice: choice)))
    }

    /// Reads a message's fields in order; nil past its end. Confined to one decode.
    private struct Reader {
        let bytes: [UInt8]
        var at: Int

        var atEnd: Bool { at == bytes.count }

        mutating func bytes(_ count: Int) -> ArraySlice<UInt8>? {
            guard count >= 0, bytes.count - at >= count else { return nil }
            defer { at += count }
            return bytes[at..<(at + count)]
        }

        mutating func u8() -> UInt8? { bytes(1)?.first }

        mutating func u32() -> UInt32? { bytes(4).map { $0.reduce(0) { $0 << 8 | UInt32($1) } } }

        mutating func u64() -> UInt64? { bytes(8).map { $0.reduce(0) { $0 << 8 | UInt64($1) } } }

        mutating func field() -> String? {
            guard let length = bytes(2).map({ $0.reduce(0) { $0 << 8 | Int($1) } }), length <= RelayMessage.maxField,
                  let text = bytes(length)
            else { return nil }
            return String(decoding: text, as: UTF8.self)
        }
    }
}

private extension [UInt8] {
    mutating func append(_ value: UInt32) {
        for shift in stride(from: 24, through: 0, by: -8) { append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    mutating func append(_ value: UInt64) {
        for shift in stride(from: 56, through: 0, by: -8) { append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    /// A 2-byte length and the UTF-8 bytes (cut to ``RelayMessage/maxField``).
    mutating func appendField(_ text: String) {
        let bytes = Array(text.utf8.prefix(RelayMessage.maxField))
        append(UInt8(bytes.count >> 8))
        append(UInt8(bytes.count & 0xff))
        self += bytes
    }
}
