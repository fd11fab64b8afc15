import Foundation
import Sealing

/// Turns a table's own tokens into sealed positions a client may hold, and back.
///
/// An object, not a value (keys and scope are 64 bytes): a viewer's loader and each open position refer to their
/// table's one codec (idle memory per stream, BENCHMARKS.md).
/// Thread-safe: immutable.
final class TokenCodec<Token: Codable & Sendable & Equatable>: Sendable {
    let seal: SealingKeys
    let scope: String

    init(seal: SealingKeys, scope: String) {
        self.seal = seal
        self.scope = scope
    }

    /// The token a position stands for; a position not sealed for this table with one of the keys (forged,
    /// altered, sealed with a retired key or by a process with a random key) is a non-retryable failure. An open
    /// position of this table's is its token as it is (nothing to open).
    func token(at position: TablePosition, initial: Token) throws -> Token {
        // The first position (every new viewer's) before anything that needs a generic type's metadata: the cast
        // below looked `OpenToken<Token>` up at run time on every call (about 300 instructions an arrival).
        if case .first = position { return initial }
        return try opened(position)
    }

    private func opened(_ position: TablePosition) throws -> Token {
        let sealed: String
        switch position {
        case .first: preconditionFailure("token(at:initial:) answers the first position")
        case .open(let open as OpenToken<Token>) where open.codec.scope == scope: return open.token
        case .open(let open): sealed = open.sealed()
        case .cursor(let text): sealed = text
        }
        guard let opened = seal.open(sealed, scope: scope),
              let token = try? JSONDecoder().decode(Token.self, from: Data(opened.utf8))
        else { throw LoadFailure(message: "This position is no longer valid; reload the table.", isRetryable: false) }
        return token
    }

    /// The position of `token`, kept open (``OpenToken``) with its sealed text for the batch's event. A token whose
    /// sealed form `open` would refuse (longer than `CursorSeal.maxSealedLength`) is a non-retryable failure here,
    /// not an unreadable position later.
    func position(of token: Token) throws -> TablePosition {
        let data = try JSONEncoder().encode(token)
        let sealed = seal(json: data)
        guard sealed.utf8.count <= CursorSeal.maxSealedLength else {
            throw LoadFailure(message: "The next token is too long to hand out (\(data.count) bytes as JSON; "
                              + "at most about 3,000 fit in a resume token).", isRetryable: false)
        }
        return .open(OpenToken(token: token, codec: self, sealed: sealed))
    }

    /// The sealed text of `token` (a position handed out again after its event took the first one).
    func seal(_ token: Token) -> String {
        // Encoding succeeded when the position was made; the same token encodes the same way.
        seal(json: (try? JSONEncoder().encode(token)) ?? Data())
    }

    private func seal(json: Data) -> String {
        seal.seal(String(decoding: json, as: UTF8.self), scope: scope)
    }
}
