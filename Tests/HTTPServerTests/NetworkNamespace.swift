import Foundation
import TestSupport

/// A fresh network namespace for the calling thread, so a test can make its loopback lose packets without
/// touching the machine's. Linux namespaces belong to threads: `unshare(CLONE_NEWNET)` moves only the calling
/// thread; sockets it then opens (and everything accepted from them) live in the new namespace, and processes it
/// starts (`ip`, `tc`) run there. The namespace goes away with its last socket and thread. Needs root.
///
/// Thread rules: call from a thread of your own (`offPool`), never a cooperative one.
enum NetworkNamespace {
    struct Failure: Error, CustomStringConvertible { let description: String }

    /// Moves the calling thread into a new network namespace and brings its loopback up.
    static func enterFresh() throws {
        // unshare is not in Swift's Glibc module (sched.h declares it only under _GNU_SOURCE).
        guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "unshare") else {
            throw Failure(description: "unshare not found")
        }
        let unshare = unsafeBitCast(symbol, to: (@convention(c) (Int32) -> Int32).self)
        let cloneNewNet: Int32 = 0x4000_0000
        guard unshare(cloneNewNet) == 0 else { throw Failure(description: "unshare(CLONE_NEWNET): errno \(errno)") }
        try run("ip", ["link", "set", "lo", "up"])
    }

    /// Runs `tool` (from /usr/sbin or /sbin) in the calling thread's namespace; throws unless it exits 0.
    static func run(_ tool: String, _ arguments: [String]) throws {
        guard let path = ["/usr/sbin/", "/sbin/", "/usr/bin/"].map({ $0 + tool })
            .first(where: FileManager.default.isExecutableFile(atPath:))
        else { throw Failure(description: "\(tool) not installed") }
        // TestSupport's SpawnedProcess, not Foundation's Process: Process sets up a CFSocket wake-up pair and a
        // monitoring thread, which fail in a namespace whose loopback is not up yet, and then never sees the child exit.
        let child = try SpawnedProcess(path, arguments, environment: ProcessInfo.processInfo.environment)
        try child.waitUntilExit()
        guard child.terminationStatus == 0 else {
            let errors = String(decoding: child.errors.readDataToEndOfFile(), as: UTF8.self)
            throw Failure(description: "\(tool) \(arguments.joined(separator: " ")) failed "
                          + "(status \(child.terminationStatus ?? -1)): \(errors)")
        }
    }
}
