import Foundation
import Tables

/// `timeZone` and `locale`, of a table or of the whole config (the tables' default): how the page shows dates and
/// numbers (``ViewerFormats``, docs/CONFIG.md "Time zone and locale"). A time zone must be an IANA name this system
/// knows (`Asia/Tokyo`, `UTC`); a locale `viewer` or a BCP 47 tag (`de-CH`, letters, digits and `-`, 2 to 35).
///
/// Thread-safe: pure functions.
enum ViewerFormatsConfig {
    static func read(_ reader: inout ConfigReader) throws(ConfigError) -> ViewerFormats {
        var formats = ViewerFormats()
        if let zone = try reader.string("timeZone") {
            guard isTimeZoneName(zone) else {
                throw reader.error("timeZone", "an IANA time zone name such as Europe/Berlin, Asia/Tokyo or UTC")
            }
            formats.timeZone = zone
        }
        if let locale = try reader.string("locale") {
            guard locale == "viewer" || isLanguageTag(locale) else {
                throw reader.error("locale", "viewer (the browser's locale) or a BCP 47 language tag such as en-GB or de-CH")
            }
            formats.locale = locale
        }
        return formats
    }

    /// `formats` with what it leaves unset taken from `defaults`.
    static func merged(_ formats: ViewerFormats, defaults: ViewerFormats) -> ViewerFormats {
        ViewerFormats(timeZone: formats.timeZone ?? defaults.timeZone, locale: formats.locale ?? defaults.locale)
    }

    /// A name of the IANA database (`Region/City`, `UTC`): letters, digits, `/`, `_`, `-`, `+`, and known here.
    static func isTimeZoneName(_ name: String) -> Bool {
        let allowed = name.utf8.allSatisfy { byte in
            (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte)
                || byte == 0x2F || byte == 0x5F || byte == 0x2D || byte == 0x2B
        }
        guard allowed, (1...64).contains(name.utf8.count), TimeZone(identifier: name) != nil else { return false }
        // Foundation also takes abbreviations and offsets ("JST", "GMT+9"); the page's Intl takes IANA names.
        return name == "UTC" || name.contains("/")
    }

    /// A BCP 47 tag's shape: subtags of 1 to 8 letters or digits joined by `-`, the first 2 to 3 letters.
    static func isLanguageTag(_ tag: String) -> Bool {
        let parts = tag.split(separator: "-", omittingEmptySubsequences: false)
        guard tag.utf8.count <= 35, let first = parts.first, (2...3).contains(first.utf8.count),
              first.utf8.allSatisfy({ (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }) else { return false }
        return parts.dropFirst().allSatisfy { part in
            (1...8).contains(part.utf8.count)
                && part.utf8.allSatisfy { (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) }
        }
    }
}
