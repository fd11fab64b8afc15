extension Connection {
    /// The unsent bytes at or under which a stream has room (``StreamWriter/waitForRoom()``): a quarter of the limit.
    var roomThreshold: Int { context.configuration.maxWriteBufferBytes / 4 }

    /// Resumes `writer`'s waiters now if the stream has room (or is no longer this connection's open stream: its
    /// end resumes them anyway), else once `flush` has sent enough. - Important: Must be called on `owner.loop`.
    func checkRoom(for writer: StreamWriter) {
        assertOnLoop()
        guard case .streaming(let streaming, _) = state, streaming === writer, output.count > roomThreshold else {
            return writer.resumeRoomWaiters()
        }
        roomWanted = true
    }

    /// After a flush: resumes the open stream's waiters once its unsent bytes are down to the threshold.
    /// - Important: Must be called on `owner.loop`.
    func releaseRoomIfDrained() {
        assertOnLoop()
        guard roomWanted, output.count <= roomThreshold, case .streaming(let writer, _) = state else { return }
        roomWanted = false
        writer.resumeRoomWaiters()
    }
}
