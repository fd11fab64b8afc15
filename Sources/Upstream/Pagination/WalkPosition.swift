/// Where a walk stands between two batches: the cursor of its next page and its dedup window. The token of a
/// config table's batches: sealed inside the resume token, so it is integrity-protected (a client can neither
/// read, alter nor enlarge it), and any instance holding the sealing key resumes the walk exactly.
///
/// Thread-safe: a value type.
public struct WalkPosition: Sendable, Equatable, Codable {
    /// The upstream cursor of the next page.
    public var cursor: String
    /// The keys to drop repeats of (nil: the walk does not deduplicate).
    public var window: KeyWindow?

    public init(cursor: String, window: KeyWindow?) {
        self.cursor = cursor
        self.window = window
    }

    private enum CodingKeys: String, CodingKey {
        case cursor = "c"
        case window = "w"
    }
}
