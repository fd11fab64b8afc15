/// Something registered with an event loop for readiness events on one fd (a server connection, the listener,
/// a Redis connection).
/// - Important: `handleEvents` is called on the owning loop only.
package protocol EventHandler: AnyObject {
    /// `events`: the ready bits (`csystem_EPOLLIN`, `csystem_EPOLLOUT`, `csystem_EPOLLERR`, ...).
    func handleEvents(_ events: UInt32)
}
