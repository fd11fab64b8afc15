/// A response body that is a run of bytes in a sealed file in memory (``HTTPResponse/Body/file(_:)``): the server
/// sends it with `sendfile`, so the kernel hands the file's pages to the socket and nothing copies the bytes per
/// request. ``StaticFiles`` serves its files this way.
///
/// Thread-safe: a value over an immutable sealed file; it keeps the file (and its fd) alive while it exists.
public struct FileRegion: Sendable {
    let file: SealedFile
    /// Where the region starts in the file.
    let offset: Int
    /// The region's length in bytes.
    public let count: Int

    init(file: SealedFile, offset: Int, count: Int) {
        precondition(offset >= 0 && count >= 0 && offset + count <= file.count, "region outside its file")
        self.file = file
        self.offset = offset
        self.count = count
    }

    /// The region's bytes, read from the file (for in-process clients and tests; the server never reads them).
    public func bytes() -> [UInt8] {
        file.read(offset: offset, count: count)
    }
}
