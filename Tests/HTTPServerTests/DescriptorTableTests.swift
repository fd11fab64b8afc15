import Foundation
import Glibc
import Testing
@testable import HTTPServer

/// The descriptor table grown once at start (``DescriptorTable``): a growth while serving waits for an RCU grace period
/// in a threaded process, and held up accepting in a storm of arrivals.
@Suite struct DescriptorTableTests {
    @Test func theSlotsAreTheConnectionsAndTheReservedWithinTheLimitAndTheCap() {
        #expect(DescriptorTable.slots(maxConnections: 19_744, openFileLimit: 20_000) == 20_000)
        #expect(DescriptorTable.slots(maxConnections: 1_000, openFileLimit: 20_000) == 1_256)
        #expect(DescriptorTable.slots(maxConnections: Int.max, openFileLimit: 20_000) == 20_000)
        #expect(DescriptorTable.slots(maxConnections: Int.max, openFileLimit: rlim_t.max) == DescriptorTable.mostSlots)
    }

    @Test func reservingGrowsTheTableAndLeavesNoDescriptorOpen() throws {
        let fd = open("/dev/null", O_RDONLY)
        try #require(fd >= 0)
        defer { close(fd) }
        // Above the descriptor itself: tests beside this one may hold thousands open (fd 3013 once in CI at fc044c5).
        let slots = max(3_000, Int(fd) + 1_000)
        try #require(rlim_t(slots) < DescriptorTable.openFileLimit() ?? 0, "room under the open-file limit")
        let high = try #require(DescriptorTable.reserve(slots, duplicating: fd))
        #expect(Int(high) >= slots - 1)
        #expect(fcntl(high, F_GETFD) == -1, "the duplicate is closed")
        #expect(try Self.tableSize() >= slots)
        #expect(DescriptorTable.reserve(Int(fd), duplicating: fd) == nil, "nothing below the descriptor itself")
    }

    /// `FDSize` of /proc/self/status: the slots of this process's descriptor table.
    static func tableSize() throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("FDSize:") })
        return try #require(Int(line.dropFirst("FDSize:".count).trimmingCharacters(in: .whitespaces)))
    }
}
