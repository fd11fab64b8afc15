// swift-tools-version:6.0
// Rowstream: slow paginated APIs as live, infinitely scrolling HTML tables over Server-Sent Events.
// Dependencies point one way, down: rowstream -> Dashboard -> {RowstreamKit, Upstream, Redis}; RowstreamKit (the library)
// -> {HTTPServer, Batches, Tables, Sealing, Access}; Access -> {HTTPServer, Sealing, Tables, CCrypt}; Upstream -> {Sealing, CCurl, JSON, Tables, Batches}; leaves JSON, Metrics, Sealing -> CCrypto,
// Locking (every lock: Metrics, Batches, EventLoop, HTTPServer, Upstream, Access, RowstreamKit and Dashboard use it),
// HTTPServer -> {EventLoop, CSystem, CZlib, CURing}, Redis -> {EventLoop, CSystem} (the one epoll loop type they share),
// EventLoop -> {Locking, CSystem}. Sealing (one base64url, one sealing type) holds what tokens need, so the library does not link libcurl. Only Upstream imports CCurl; only Sealing imports CCrypto; only Access imports CCrypt; only EventLoop, HTTPServer and Redis import CSystem; only HTTPServer (and TestSupport, to decode) imports CZlib; only HTTPServer imports CURing.
// Each target depends on exactly what its files import. RowstreamTesting -> HTTPServerTesting: in-process tests.
import PackageDescription

let strict: [SwiftSetting] = [.swiftLanguageMode(.v6)]

let package = Package(
    name: "Rowstream",
    products: [
        .executable(name: "rowstream", targets: ["rowstream"]),
        // The library: bind your own data source and row template in code (docs/LIBRARY.md).
        .library(name: "RowstreamKit", targets: ["RowstreamKit"]),
        // Test your bindings in-process, without sockets (docs/LIBRARY.md, "Testing your bindings").
        .library(name: "RowstreamTesting", targets: ["RowstreamTesting", "HTTPServerTesting"]),
        .executable(name: "rowstream-load", targets: ["rowstream-load"]),
    ],
    targets: [
        // C libraries: typed wrappers only, no logic.
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        // OpenSSL's libcrypto (which Debian's libcurl links anyway): sealing cursors and resume tokens.
        .systemLibrary(
            name: "CCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        // The system's libcrypt (libxcrypt): crypt(3) password hashes (yescrypt, bcrypt) for the access layer's users.
        .systemLibrary(name: "CCrypt", providers: [.apt(["libcrypt-dev"])]),
        .systemLibrary(name: "CSystem"),
        // zlib: gzip responses and event streams (HTTPServer), negotiated by Accept-Encoding.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // liburing (Debian's liburing-dev, 2.3): HTTPServer's batched sends (SendRing). A C target, not a system
        // module: liburing.h includes <sys/socket.h>, so it stays inside curing.c and only stdint types reach Swift.
        .target(name: "CURing", linkerSettings: [.linkedLibrary("uring")]),

        // Leaves.
        // Locking: every lock (`Lock`, a `Mutex` that ThreadSanitizer sees through).
        .target(name: "Locking", swiftSettings: strict),
        .target(name: "JSON", swiftSettings: strict),
        .target(name: "Metrics", dependencies: ["Locking"], swiftSettings: strict),
        .target(name: "Batches", dependencies: ["Locking"], swiftSettings: strict),
        .target(name: "Tables", dependencies: ["JSON"], swiftSettings: strict),
        // One epoll thread with timers and a work queue (eventfd wake-up): the loops of HTTPServer and Redis.
        .target(name: "EventLoop", dependencies: ["Locking", "CSystem"], swiftSettings: strict),
        .target(name: "HTTPServer", dependencies: ["Locking", "EventLoop", "CSystem", "CZlib", "CURing"],
                swiftSettings: strict),
        // Redis client (RESP on an EventLoop of its own, `package` API): the shared engine of issue 15.
        .target(name: "Redis", dependencies: ["EventLoop", "CSystem"], swiftSettings: strict),
        // Tokens and sealing: one base64url, one sealing type (AES-256-SIV), shared by Upstream and RowstreamKit.
        .target(name: "Sealing", dependencies: ["CCrypto"], swiftSettings: strict),
        // Tables: the walk's entry point is specialized for a config table's rows (PageWalker.nextBatch); Batches: it
        // returns each batch as the batches take it (LoadResult).
        .target(name: "Upstream", dependencies: ["Locking", "CCurl", "Sealing", "JSON", "Tables", "Batches"], swiftSettings: strict),
        // Who may see what (docs/SECURITY.md): access modes, API tokens, a trusted proxy, allow lists.
        .target(name: "Access", dependencies: ["Locking", "HTTPServer", "Sealing", "Tables", "CCrypt"], swiftSettings: strict),

        // Wiring: the public library (bindings, server, routes, sessions), then the config/demo dashboard on it.
        .target(
            name: "RowstreamKit",
            dependencies: ["Locking", "HTTPServer", "Batches", "Tables", "Sealing", "JSON", "Metrics", "Access"],
            swiftSettings: strict
        ),
        .target(
            name: "Dashboard",
            dependencies: ["Locking", "RowstreamKit", "HTTPServer", "Tables", "Upstream", "JSON", "Metrics", "Redis"],
            swiftSettings: strict
        ),
        .executableTarget(name: "rowstream", dependencies: ["Locking", "Dashboard", "Sealing"], swiftSettings: strict),

        // In-process testing (as HummingbirdTesting): any responder called without sockets, then the library's
        // server on it. Test code only.
        .target(name: "HTTPServerTesting", dependencies: ["Locking", "HTTPServer"], swiftSettings: strict),
        .target(name: "RowstreamTesting", dependencies: ["RowstreamKit", "HTTPServerTesting", "HTTPServer"],
                swiftSettings: strict),

        // Fuzz targets (libFuzzer): `Scripts/fuzz`, or `swift build --sanitize fuzzer --sanitize address --product X`.
        // Built normally (no libFuzzer) each replays the input files named on its command line.
        .target(name: "FuzzReplay", path: "Fuzz/Replay", swiftSettings: strict),
        .executableTarget(name: "FuzzHTTPRequestParser", dependencies: ["FuzzReplay", "HTTPServer"],
                          path: "Fuzz/Targets/HTTPRequestParser", swiftSettings: strict),
        .executableTarget(name: "FuzzSSEEncoder", dependencies: ["FuzzReplay", "HTTPServer"],
                          path: "Fuzz/Targets/SSEEncoder", swiftSettings: strict),
        .executableTarget(name: "FuzzJSONParser", dependencies: ["FuzzReplay", "JSON"],
                          path: "Fuzz/Targets/JSONParser", swiftSettings: strict),
        .executableTarget(name: "FuzzItemReading", dependencies: ["FuzzReplay", "JSON", "Tables"],
                          path: "Fuzz/Targets/ItemReading", swiftSettings: strict),
        .executableTarget(name: "FuzzJSONPath", dependencies: ["FuzzReplay", "JSON"],
                          path: "Fuzz/Targets/JSONPath", swiftSettings: strict),
        .executableTarget(name: "FuzzResumeToken", dependencies: ["FuzzReplay", "Dashboard", "RowstreamKit", "Sealing"],
                          path: "Fuzz/Targets/ResumeToken", swiftSettings: strict),
        .executableTarget(name: "FuzzRESPParser", dependencies: ["FuzzReplay", "Redis"],
                          path: "Fuzz/Targets/RESPParser", swiftSettings: strict),
        .executableTarget(name: "FuzzAccessCredentials", dependencies: ["FuzzReplay", "Access", "HTTPServer", "Sealing"],
                          path: "Fuzz/Targets/AccessCredentials", swiftSettings: strict),
        .executableTarget(name: "FuzzHTMLRenderer", dependencies: ["FuzzReplay", "Dashboard", "Tables", "JSON"],
                          path: "Fuzz/Targets/HTMLRenderer", swiftSettings: strict),

        // Load client for Scripts/soak and benchmarks: single-threaded epoll, 127.0.0.1 only.
        .executableTarget(name: "rowstream-load", dependencies: ["CSystem", "CZlib"], path: "Bench/Load",
                          swiftSettings: strict),
        // Rendering benchmark for Scripts/bench: escaped cells per second on one core.
        .executableTarget(name: "rowstream-bench-render", dependencies: ["Tables", "JSON"], path: "Bench/Render",
                          swiftSettings: strict),

        // Shared-page benchmark for Scripts/bench: a Redis value bound to its key (HMAC tag) against one that is not.
        .executableTarget(name: "rowstream-bench-shared", dependencies: ["Upstream", "JSON", "Sealing"],
                          path: "Bench/SharedPages", swiftSettings: strict),

        // Lock benchmark for Scripts/bench: a Lock against the Mutex it wraps, uncontended.
        .executableTarget(name: "rowstream-bench-locks", dependencies: ["Locking"], path: "Bench/Locks",
                          swiftSettings: strict),

        // Loopback floor for Scripts/bench fanout: the kernel's TCP alone, CPU per event written (send and io_uring).
        .executableTarget(name: "rowstream-bench-floor", dependencies: ["CSystem", "CURing"], path: "Bench/Floor",
                          swiftSettings: strict),

        // Tests mirror Sources. TestSupport: the plain socket HTTP and SSE clients the live tests share.
        .target(name: "TestSupport", dependencies: ["Locking", "HTTPServerTesting", "CZlib"], path: "Tests/Support", swiftSettings: strict),
        .testTarget(name: "JSONTests", dependencies: ["TestSupport", "JSON"], swiftSettings: strict),
        .testTarget(name: "LockingTests", dependencies: ["Locking"], swiftSettings: strict),
        .testTarget(name: "MetricsTests", dependencies: ["Metrics"], swiftSettings: strict),
        .testTarget(name: "BatchesTests", dependencies: ["Locking", "TestSupport", "Batches"], swiftSettings: strict),
        .testTarget(name: "TablesTests", dependencies: ["TestSupport", "Tables", "JSON"], swiftSettings: strict),
        .testTarget(name: "EventLoopTests", dependencies: ["EventLoop"], swiftSettings: strict),
        .testTarget(name: "HTTPServerTests", dependencies: ["Locking", "TestSupport", "HTTPServer", "HTTPServerTesting"],
                    swiftSettings: strict),
        .testTarget(name: "RedisTests", dependencies: ["Locking", "TestSupport", "Redis", "RowstreamKit", "Dashboard", "HTTPServerTesting", "Sealing"],
                    swiftSettings: strict),
        .testTarget(name: "SealingTests", dependencies: ["Sealing"], swiftSettings: strict),
        // The load client's stream readers (Bench/Load), tested through the executable's module.
        .testTarget(name: "LoadTests", dependencies: ["rowstream-load"], swiftSettings: strict),
        .testTarget(name: "AccessTests", dependencies: ["Locking", "TestSupport", "Access", "Sealing", "HTTPServer", "HTTPServerTesting"],
                    swiftSettings: strict),
        .testTarget(name: "UpstreamTests", dependencies: ["Locking", "TestSupport", "Upstream", "JSON", "Sealing"], swiftSettings: strict),
        .testTarget(
            name: "DashboardTests",
            dependencies: ["Locking", "TestSupport", "Dashboard", "RowstreamKit", "HTTPServer", "HTTPServerTesting", "Upstream",
                           "Sealing", "JSON", "Redis"],
            swiftSettings: strict
        ),
        // The library's tests: most go through its public API as a developer would (RowstreamServer, TableBinding,
        // RowstreamTesting); those of internal parts (sessions, shared batches, cell forms) use @testable.
        .testTarget(name: "RowstreamKitTests", dependencies: ["Locking", "TestSupport", "RowstreamKit", "RowstreamTesting",
                                                             "HTTPServerTesting", "HTTPServer", "Tables"], swiftSettings: strict),
    ]
)
