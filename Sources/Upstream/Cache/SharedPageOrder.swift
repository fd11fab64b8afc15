/// The ordering rule of shared page writes (docs/SCALING.md, "Shared page cache and single-flight"): a page goes
/// into the store only if the one there is not newer, newer meaning that its fetch started later. A fetch that
/// started before a live refresh but lands after it thus never puts its older page over the refresh's (which the
/// other instances would then serve, head going backwards, until its TTL).
///
/// A stored value's order is its page's "fetched at" (``SharedPageCodec``): when its fetch started, Unix ms, the 8
/// big-endian bytes at ``range`` of the stored (sealed) value, so inside what its tag covers. A store compares it
/// without the sealing key: ``SharedPageStore/store(_:at:lifetime:)`` does it in one atomic step (on Redis a script,
/// one round trip as the `SET` it replaces). A value there that is not of this layout, or whose order is more than
/// ``maxLead`` ahead of the store's clock (forged, or written by an instance whose clock is far off), is replaced
/// whatever its order, so nobody can pin a page by writing one from the future.
///
/// Thread-safe: constants and pure functions.
public enum SharedPageOrder {
    /// Where a stored value's order is: right after the seal and the page format byte.
    public static let range = (SharedPageKeys.sealOverhead + 1)..<(SharedPageKeys.sealOverhead + 9)
    /// The first byte of a stored value of this layout (the seal's format), and the byte after the seal (the page's).
    public static let sealFormat = SharedPageKeys.sealFormat, pageFormat = SharedPageCodec.format
    /// How far ahead of the store's clock an order may be and still be kept over an older write (ms).
    public static let maxLead: UInt64 = 60_000

    /// The order of `stored` (a sealed page value), or nil if it is not of this layout.
    public static func order(of stored: [UInt8]) -> UInt64? {
        guard stored.count >= range.upperBound, stored[0] == sealFormat,
              stored[SharedPageKeys.sealOverhead] == pageFormat else { return nil }
        return stored[range].reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// Whether `new` goes in over `old` (nil: none there) at the store's time `now` (Unix ms).
    public static func replaces(_ old: [UInt8]?, with new: [UInt8], now: UInt64) -> Bool {
        guard let old, let kept = order(of: old), kept <= now &+ maxLead else { return true }
        return (order(of: new) ?? 0) >= kept
    }
}
