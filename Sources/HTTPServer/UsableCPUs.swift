import Foundation

/// How many CPUs this process may run on: the bits of its affinity mask (`Cpus_allowed` in `/proc/self/status`,
/// which `taskset` and cgroup cpusets narrow), at most the online processor count. `ProcessInfo`'s count ignores
/// the mask. Thread-safe: reads a file, no state.
enum UsableCPUs {
    /// The count; the online processor count when the mask cannot be read.
    static func count() -> Int {
        let online = max(1, ProcessInfo.processInfo.activeProcessorCount)
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return online }
        return count(status: status).map { min($0, online) } ?? online
    }

    /// The bits set in the `Cpus_allowed:` line (hex words separated by commas); nil without one or with no bit.
    static func count(status: String) -> Int? {
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Cpus_allowed:") }) else {
            return nil
        }
        var bits = 0
        for byte in line.dropFirst("Cpus_allowed:".count).utf8 {
            if let value = PercentDecoding.hexValue(byte) { bits += value.nonzeroBitCount }
        }
        return bits > 0 ? bits : nil
    }
}
