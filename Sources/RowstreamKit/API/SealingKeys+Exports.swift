import Sealing

/// The keys that seal and open resume tokens and the JSON proxy's cursors: ``ServerConfiguration/sealingKeys``
/// (docs/SCALING.md, "Keys: tokens valid on every instance").
public typealias SealingKeys = Sealing.SealingKeys

/// Reads a sealing key file (one base64 key per line, the first seals): `try SealingKeyFile.load(path:)`.
public typealias SealingKeyFile = Sealing.SealingKeyFile

/// Why sealing keys could not be read; names the file and line, never a key.
public typealias SealingKeysError = Sealing.SealingKeysError
