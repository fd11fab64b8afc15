import Glibc

/// Reads one HTTP response carrying a text/event-stream where it lies, for a stream whose consumer needs no event's
/// data (the storm's readiness, the idle bench): the status from the head, then how many complete events arrived
/// and how many of them are named `rows`. Its rules are ``EventScanner``'s: an event counts once its blank line
/// arrived, and only with a `data` field (comments and retry-only blocks are not events); its name is its last
/// `event` field (`event: rows` or `event:rows`); line ends are LF, CRLF or CR, a CRLF also split across reads. But
/// it copies no byte and allocates nothing: each read is scanned in place, line by line (the rest of a data line is
/// skipped with memchr), and between reads it keeps only the state of the line the read ended in.
/// Thread rules: a value owned by one connection on the load client's single thread.
struct EventSkimmer {
    /// The response's status, once its head is complete (0 when its status line holds no number).
    private(set) var status: Int?
    /// Complete events (each with a `data` field) so far, and those of them named `rows`.
    private(set) var events = 0
    private(set) var rowsEvents = 0

    /// Where the current line is.
    private enum Line {
        /// The head's status line: in its version, in the spaces after it, in its code (digits in `code`).
        case version, spaces, code
        /// At a line's first byte.
        case start
        /// In a field's name (its bytes in `word`), after an `event` field's colon, in an `event` field's value.
        case field, eventColon, eventValue
        /// The rest of the line does not matter (a head line, a comment, a data line, an unknown field).
        case skip
    }

    private var line = Line.version
    private var inHead = true
    /// The last read ended in a CR: an LF that starts the next one belongs to it.
    private var afterCR = false
    private var code = 0
    /// The last bytes (at most 8) of the field name or event name being read, and how many there were.
    private var word: UInt64 = 0
    private var wordLength = 0
    /// The event so far: it has a `data` field; its name is `rows`.
    private var sawData = false
    private var isRows = false

    private static let dataWord: UInt64 = 0x6461_7461  // "data"
    private static let eventWord: UInt64 = 0x65_7665_6E74  // "event"
    private static let rowsWord: UInt64 = 0x726F_7773  // "rows"

    /// Scans `bytes`, the next bytes of the response.
    mutating func scan(_ bytes: UnsafeRawBufferPointer) {
        guard let raw = bytes.baseAddress, !bytes.isEmpty else { return }
        let base = raw.assumingMemoryBound(to: UInt8.self)
        let count = bytes.count
        var index = afterCR && base[0] == 10 ? 1 : 0  // the LF of a CRLF split between two reads
        afterCR = false
        while index < count {
            if line == .skip {
                index = Self.lineEnd(base, from: index, to: count)
                if index == count { return }
            }
            let byte = base[index]
            index += 1
            guard byte == 10 || byte == 13 else {
                take(byte)
                continue
            }
            endLine()
            if byte == 13 {
                if index == count { afterCR = true } else if base[index] == 10 { index += 1 }
            }
        }
    }

    /// One byte of the current line, not a line end.
    private mutating func take(_ byte: UInt8) {
        switch line {
        case .version:
            if byte == 32 { line = .spaces }
        case .spaces:
            if byte >= 48, byte <= 57 {
                (code, wordLength, line) = (Int(byte - 48), 1, .code)
            } else if byte != 32 {
                line = .skip  // no number: status 0
            }
        case .code:
            if byte >= 48, byte <= 57, wordLength < 9 {
                code = code * 10 + Int(byte - 48)
                wordLength += 1
            } else {
                if byte != 32 { code = 0 }  // not a number: status 0
                line = .skip
            }
        case .start:
            if inHead || byte == 58 {  // a head line, or a comment
                line = .skip
            } else {
                (word, wordLength, line) = (UInt64(byte), 1, .field)
            }
        case .field:
            if byte == 58 {
                endField()
            } else if wordLength < 5 {
                word = word << 8 | UInt64(byte)
                wordLength += 1
            } else {
                line = .skip  // longer than any field that matters
            }
        case .eventColon:
            (word, wordLength, line) = (0, 0, .eventValue)
            if byte != 32 { take(byte) }  // one space after the colon is not part of the value
        case .eventValue:
            word = word << 8 | UInt64(byte)
            wordLength += 1
        case .skip:
            break
        }
    }

    /// A field's name ended (at its colon, or at the line's end: a field with an empty value).
    private mutating func endField() {
        if wordLength == 4, word == Self.dataWord {
            sawData = true
            line = .skip
        } else if wordLength == 5, word == Self.eventWord {
            line = .eventColon
        } else {
            line = .skip
        }
    }

    /// The current line ended: a blank line ends the head or an event.
    private mutating func endLine() {
        switch line {
        case .version, .spaces, .code, .skip:
            break
        case .start:
            if inHead {
                inHead = false
                status = code
            } else {
                if sawData {
                    events += 1
                    if isRows { rowsEvents += 1 }
                }
                sawData = false
                isRows = false
            }
        case .field:
            endField()
            if line == .eventColon { isRows = false }  // `event` alone: an empty name
        case .eventColon:
            isRows = false
        case .eventValue:
            isRows = wordLength == 4 && word == Self.rowsWord
        }
        line = .start
    }

    /// The index of the first LF or CR in `base[from..<end]`, or `end`.
    private static func lineEnd(_ base: UnsafePointer<UInt8>, from: Int, to end: Int) -> Int {
        var stop = end
        if let hit = memchr(base + from, 10, end - from) {
            stop = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
        }
        if stop > from, let hit = memchr(base + from, 13, stop - from) {
            stop = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
        }
        return stop
    }
}
