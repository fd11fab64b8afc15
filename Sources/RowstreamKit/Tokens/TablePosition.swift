import Locking

/// Where a viewer stands in a table, as the server's machinery sees every table whatever its token type: before
/// the first batch, at a sealed token (the table's own token, JSON-encoded and sealed with its `SealingKeys`, so a
/// resume token or cursor a client sends back cannot be forged), or at a token this process just loaded to, kept
/// open (``OpenPosition``) and sealed only when it is handed out (``sealed``). Thread-safe: an immutable value.
enum TablePosition: Sendable, Equatable {
    case first
    case cursor(String)
    case open(any OpenPosition)

    /// The sealed text a client may hold (a resume token's cursor); nil before the first batch.
    var sealed: String? {
        switch self {
        case .first: nil
        case .cursor(let sealed): sealed
        case .open(let open): open.sealed()
        }
    }

    /// Equal positions stand for the same token (a loader whose next position equals the one it was given ends the
    /// list): two open ones compare their tokens; an open one and a sealed one compare the sealed one's token
    /// (sealing twice need not give the same text: the JSON inside is not canonical).
    static func == (lhs: TablePosition, rhs: TablePosition) -> Bool {
        switch (lhs, rhs) {
        case (.first, .first): true
        case (.first, _), (_, .first): false
        case (.cursor(let a), .cursor(let b)): a == b
        case (.open(let a), .open(let b)): a === b || a.holdsSameToken(as: b)
        case (.open(let open), .cursor(let sealed)), (.cursor(let sealed), .open(let open)):
            open.holdsToken(sealedAs: sealed)
        }
    }
}

/// A table's own token after a load, kept open in the viewer's session instead of its sealed text (issue 17: the
/// sealed form with its key window was ~830 B held per idle viewer; the open token shares the walk's arrays). The
/// sealed text made at load time (its length checked there) is kept only until the batch's event takes it
/// (``forgetSealed()``); after that ``sealed()`` seals again (a text that opens to the same token, not always the
/// same text). Thread-safe: the token is immutable, the kept text
/// behind a `Lock`.
protocol OpenPosition: AnyObject, Sendable {
    /// The sealed text of the token (the kept one, or sealed now).
    func sealed() -> String
    /// Drops the sealed text kept from load time: the session holds only the open token from then on. Does nothing
    /// once the position is shared (``markShared()``).
    func forgetSealed()
    /// Other viewers' sessions hold this very position (``RecentBatches`` handed it out again): from now on the
    /// sealed text is kept, one for all of them, so each viewer's event carries the same id (and ``SharedBatchBodies``
    /// shares the whole event) instead of each sealing it anew.
    func markShared()
    /// Whether `other` holds an equal token of the same table.
    func holdsSameToken(as other: any OpenPosition) -> Bool
    /// Whether `sealed` opens, for this table, to an equal token.
    func holdsToken(sealedAs sealed: String) -> Bool
}

/// ``OpenPosition`` of a table whose tokens are `Token`, with the codec that seals them.
final class OpenToken<Token: Codable & Sendable & Equatable>: OpenPosition {
    let token: Token
    let codec: TokenCodec<Token>
    /// The sealed text while kept, and whether the position is shared (then the text, once made, stays).
    private let kept: Lock<(text: String?, isShared: Bool)>

    init(token: Token, codec: TokenCodec<Token>, sealed: String) {
        self.token = token
        self.codec = codec
        kept = Lock((sealed, false))
    }

    func sealed() -> String {
        let (text, isShared) = kept.withLock { ($0.text, $0.isShared) }
        if let text { return text }
        let sealed = codec.seal(token)
        guard isShared else { return sealed }
        // The first text kept wins, so every viewer gets the same one.
        return kept.withLock { kept in
            if let text = kept.text { return text }
            kept.text = sealed
            return sealed
        }
    }

    func forgetSealed() { kept.withLock { if !$0.isShared { $0.text = nil } } }

    func markShared() { kept.withLock { $0.isShared = true } }

    func holdsSameToken(as other: any OpenPosition) -> Bool {
        guard let other = other as? OpenToken<Token>, other.codec.scope == codec.scope else { return false }
        return other.token == token
    }

    func holdsToken(sealedAs sealed: String) -> Bool {
        (try? codec.token(at: .cursor(sealed), initial: token)) == token
    }
}
