extension Connection {
    /// Writes `bytes` to the open stream like ``writeShared(_:)``, then calls `notice` once every byte queued so far
    /// (these included) has been handed to the socket: at once if it took them all, else from `flush()` when the
    /// buffer drains. Never called if the connection closes first. One closure per write that asks; nothing per byte.
    ///
    /// A compressing stream reports the bytes it actually wrote here (``WrittenBytes/encoding``, its count).
    /// - Important: Must be called on `owner.loop`.
    func writeShared(_ bytes: [UInt8], whenWritten notice: @escaping @Sendable (WrittenBytes) -> Void) {
        guard case .streaming = state, !bytes.isEmpty else { return }
        let written = WrittenBytes.identity(bytes)
        writeShared(bytes)
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
