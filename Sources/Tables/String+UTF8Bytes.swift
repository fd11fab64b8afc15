extension String {
    /// Calls `body` with this string's UTF-8 bytes, borrowed where they are stored (a native string, large or
    /// small): unlike `withUTF8`, which is `mutating`, no copy of the string (no reference count traffic per cell).
    /// A string not stored as contiguous UTF-8 is made so in a copy first.
    @inline(__always)
    @inlinable package func withUTF8Bytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if let result = utf8.withContiguousStorageIfAvailable(body) { return result }
        var copy = self
        return copy.withUTF8(body)
    }
}
