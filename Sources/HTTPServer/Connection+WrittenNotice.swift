extension Connection {
    /// Writes `bytes` to the open stream like ``writeShared(_:)``, then calls `notice` once every byte queued so far
    /// (these included) has been handed to the socket: at once if it took them all, else from `flush()` when the
    /// buffer drains. Never called if the connection closes first. One closure per write that asks; nothing per byte.
    ///
    /// A gzip-coded stream writes `deflated` (compressed by the writer, off the loop) and reports its size.
    /// - Important: Must be called on `owner.loop`.
    func writeShared(_ bytes: [UInt8], deflated: DeflatedBlock?,
                     whenWritten notice: @escaping @Sendable (WrittenBytes) -> Void) {
        writeShared(bytes, after: [], deflated: deflated, deflatedHead: nil, whenWritten: notice)
    }

    /// Writes one event like ``writeShared(_:after:deflated:deflatedHead:)``, then calls `notice` as above, with the
    /// bytes that went out for both (a gzip-coded stream: its blocks' sizes).
    /// - Important: Must be called on `owner.loop`.
    func writeShared(_ body: [UInt8], after head: [UInt8], deflated: DeflatedBlock?, deflatedHead: DeflatedBlock?,
                     whenWritten notice: @escaping @Sendable (WrittenBytes) -> Void) {
        guard phase == .streaming, !(head.isEmpty && body.isEmpty) else { return }
        let written: WrittenBytes
        if gzipStream != nil {
            let headBlock = head.isEmpty ? nil : deflatedHead ?? DeflatedBlock(compressing: head)
            let bodyBlock = deflated ?? DeflatedBlock(compressing: body)
            written = WrittenBytes(encoding: "gzip", count: (headBlock?.bytes.count ?? 0) + bodyBlock.bytes.count)
            writeShared(body, after: head, deflated: bodyBlock, deflatedHead: headBlock)
        } else {
            written = WrittenBytes(encoding: "identity", count: head.count + body.count)
            writeShared(body, after: head)
        }
        guard !isClosed else { return }
        if output.count == 0 {
            notice(written)
        } else {
            writtenNotices.append { notice(written) }
        }
    }

    /// Runs the notices waiting for the buffer to drain, once it has. Called by `flush()`.
    func runWrittenNotices() {
        assertOnLoop()
        guard output.count == 0, !writtenNotices.isEmpty else { return }
        let notices = writtenNotices
        writtenNotices = []
        for notice in notices { notice() }
    }
}
