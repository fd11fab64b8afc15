#if canImport(Glibc)
import Glibc
#endif

/// ThreadSanitizer's annotation functions, when this process runs under it (`swift build --sanitize thread` links
/// its runtime into the executable, which exports them); `nil` otherwise. Looked up once, on first use.
///
/// Thread rules: immutable after that first use (a global `let`, initialized once by the Swift runtime).
public enum ThreadSanitizer {
    /// `__tsan_acquire` and `__tsan_release`: tell ThreadSanitizer that the calling thread synchronized with the
    /// last release (acquire) or will be synchronized with by the next acquire (release) on an address.
    public struct Hooks: Sendable {
        public let acquire: @convention(c) (UnsafeRawPointer?) -> Void
        public let release: @convention(c) (UnsafeRawPointer?) -> Void
    }

    /// The hooks when running under ThreadSanitizer, else `nil`.
    public static let hooks: Hooks? = {
        guard let acquire = dlsym(nil, "__tsan_acquire"), let release = dlsym(nil, "__tsan_release") else {
            return nil
        }
        typealias Hook = @convention(c) (UnsafeRawPointer?) -> Void
        return Hooks(acquire: unsafeBitCast(acquire, to: Hook.self), release: unsafeBitCast(release, to: Hook.self))
    }()
}
