import Foundation

/// The operator's sealing key file (`--secret-file`, `ROWSTREAM_SECRET_FILE`, the config's `secretFile`):
/// one base64 key per line, at least ``SealingKeys/minimumKeyBytes`` bytes each. The first key seals and opens;
/// the ones below it only open (keys being rotated out). Blank lines and lines starting with `#` are skipped;
/// spaces around a key are ignored. Standard base64 (padded, as `base64` prints it) or unpadded base64url.
///
/// ```
/// # rotated in 2026-12-01; the old key below goes on 2026-12-02
/// 3q2+7wAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=
/// yv66vgAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=
/// ```
///
/// Errors name the file and line, never a key's text. Thread-safe: stateless.
public enum SealingKeyFile {
    /// The keys in the file at `path`.
    public static func load(path: String) throws(SealingKeysError) -> SealingKeys {
        guard let data = FileManager.default.contents(atPath: path) else { throw .unreadable(file: path) }
        return try parse(String(decoding: data, as: UTF8.self), file: path)
    }

    /// The keys in `text`, a key file's contents; `file` only names it in errors.
    public static func parse(_ text: String, file: String) throws(SealingKeysError) -> SealingKeys {
        var keys: [[UInt8]] = []
        // Split on every line break: "\r\n" is one Character in Swift, not "\n".
        for (index, rawLine) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let key = decode(line) else { throw .notBase64(file: file, line: index + 1) }
            guard key.count >= SealingKeys.minimumKeyBytes else {
                throw .keyTooShort(file: file, line: index + 1, bytes: key.count)
            }
            keys.append(key)
        }
        guard let current = keys.first else { throw .noKey(file: file) }
        return try SealingKeys(current: current, previous: Array(keys.dropFirst()))
    }

    /// A new key line: 32 bytes from the system's secure random source, in standard base64 (`rowstream keygen`).
    public static func newKey() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<SealingKeys.minimumKeyBytes).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return Data(bytes).base64EncodedString()
    }

    /// A warning when the file at `path` may be read by its group or others (a key is a secret: `chmod 600`);
    /// nil when it is private or cannot be inspected.
    public static func permissionWarning(path: String) -> String? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue, mode & 0o077 != 0
        else { return nil }
        return "\(path): the sealing key file may be read by group or others (mode \(String(mode & 0o777, radix: 8))); "
            + "chmod 600 it"
    }

    /// Canonical standard base64 (padded), else canonical unpadded base64url; nothing else (Foundation's decoder
    /// alone lets extra padding pass).
    private static func decode(_ line: String) -> [UInt8]? {
        if let data = Data(base64Encoded: line), data.base64EncodedString() == line { return [UInt8](data) }
        return Base64URL.decode(line)
    }
}
