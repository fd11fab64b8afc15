extension Connection {
    /// Writes `bytes` to the open stream like ``writeShared(_:)``, then calls `notice` once every byte queued so far
    /// (these included) has been handed to the socket: at once if it took them all, else from `flush()` when the
    /// buffer drains. Never called if the connection closes first. One closure per write that asks; nothing per byte.
    ///
    /// A gzip-coded stream reports the compressed block's size (encoding `gzip`).
    /// - Important: Must be called on `owner.loop`.
    func writeShared(_ bytes: [UInt8], whenWritten notice: @escaping @Sendable (WrittenBytes) -> Void) {
        guard case .streaming = state, !bytes.isEmpty else { return }
        // A gzip-coded stream's block is compressed here, once, so the notice can say how many bytes went out.
        let block = gzipStream == nil ? nil : DeflatedBlock(compressing: bytes)
        let written = block.map { WrittenBytes(encoding: "gzip", count: $0.bytes.count) } ?? .identity(bytes)
        writeShared(bytes, deflated: block)
        guard !isClosed else { return }
        if output.count == 0 {
            notice(written)
        } else {
            writtenNotices.append { notice(written) }
        }
    }

    /// Runs the notices waiting for the buffer to drain, once it has. Called by `flush()`.
    func runWrittenNotices() {
        guard output.count == 0, !writtenNotices.isEmpty else { return }
        let notices = writtenNotices
        writtenNotices = []
        for notice in notices { notice() }
    }
}
