import CSystem
import Glibc

/// Bytes in a sealed memfd: an anonymous file in memory whose content can never change again (`F_SEAL_WRITE`,
/// `_SHRINK`, `_GROW`, `_SEAL`), so a response sent from it with `sendfile` can be neither torn nor cut short by any
/// later write, not even to the files it was read from. ``FileRegion``s name parts of it.
///
/// Thread-safe: immutable after `init`. Reads and sends name their offset (`pread`, `sendfile` with an offset
/// pointer) and never move the file position, so any thread may read or send from it at once.
/// Ownership: owns its fd and closes it in `deinit`, once nothing refers to it any more; a queued response holds its
/// region and so the file, so the fd stays open until the response is sent or dropped.
final class SealedFile: Sendable {
    let fd: Int32
    /// The file's size in bytes.
    let count: Int

    /// A new sealed memfd holding `parts` one after another, and one region per part in order.
    /// Throws the failing call and errno when the system refuses (no memfd, no fd left, no memory).
    static func regions(holding parts: [[UInt8]], name: String) throws -> [FileRegion] {
        let file = try SealedFile(holding: parts, name: name)
        var offset = 0
        return parts.map { part in
            defer { offset += part.count }
            return FileRegion(file: file, offset: offset, count: part.count)
        }
    }

    private init(holding parts: [[UInt8]], name: String) throws {
        let fd = csystem_memfd_create(name)
        guard fd >= 0 else { throw HTTPServerError.system("memfd_create") }
        do {
            var offset = 0
            for part in parts {
                try Self.write(part, to: fd, at: offset)
                offset += part.count
            }
            guard fcntl(fd, csystem_F_ADD_SEALS, csystem_SEALS_ALL) == 0 else {
                throw HTTPServerError.system("fcntl(F_ADD_SEALS)")
            }
            self.fd = fd
            count = offset
        } catch {
            Glibc.close(fd)
            throw error
        }
    }

    deinit { Glibc.close(fd) }

    /// The file's bytes `offset..<offset + count` (they are always there: the file is sealed at its full size).
    func read(offset: Int, count: Int) -> [UInt8] {
        precondition(offset >= 0 && count >= 0 && offset + count <= self.count, "read outside the sealed file")
        return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            while initialized < count {
                let got = pread(fd, buffer.baseAddress! + initialized, count - initialized, off_t(offset + initialized))
                if got < 0 && errno == EINTR { continue }
                // A sealed memfd of this size cannot come up short: anything else is a broken invariant.
                precondition(got > 0, "pread of a sealed file failed: errno \(errno)")
                initialized += got
            }
        }
    }

    /// Writes all of `bytes` at `offset` (`pwrite` may take less than asked).
    private static func write(_ bytes: [UInt8], to fd: Int32, at offset: Int) throws {
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { raw in
                pwrite(fd, raw.baseAddress! + written, raw.count - written, off_t(offset + written))
            }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw HTTPServerError.system("pwrite") }
            written += count
        }
    }
}
