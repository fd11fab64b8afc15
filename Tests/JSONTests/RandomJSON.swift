import JSON
import TestSupport

/// Seeded pseudo-random JSON texts for differential tests: nesting, duplicate and escaped keys (`"\u0061"` is `a`),
/// every kind of scalar, whitespace anywhere, and sometimes one corrupted byte. The same seed gives the same texts.
struct RandomJSON {
    private var random: SplitMix64

    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    mutating func below(_ n: Int) -> Int { random.below(n) }

    mutating func pick<T>(_ choices: [T]) -> T { choices[below(choices.count)] }

    static let keys = ["a", "b", "c", "items", "\\u0061", "\u{e9}"]

    /// A value at most `depth` containers deep.
    mutating func value(depth: Int) -> String {
        switch below(depth > 0 ? 10 : 6) {
        case 0: return pick(["0", "-12", "9223372036854775808", "1.5e3", "-0.25", "1e400", "01"])
        case 1: return pick(["\"x\"", "\"\\u00e9\\n\"", "\"\u{e9}\u{1F600}\"", "\"\\ud83d\\ude00\"", "\"\"", "\"\\q\""])
        case 2: return pick(["true", "false", "null"])
        case 3: return pick(["[]", "{}"])
        case 4, 5: return "\(below(100))"
        case 6, 7:
            let count = below(4) + 1
            return "{" + (0..<count).map { _ in space() + "\"" + pick(Self.keys) + "\"" + space() + ":" + space()
                + value(depth: depth - 1) + space() }.joined(separator: ",") + "}"
        default:
            let count = below(4) + 1
            return "[" + (0..<count).map { _ in space() + value(depth: depth - 1) + space() }.joined(separator: ",") + "]"
        }
    }

    mutating func space() -> String { pick(["", "", "", " ", "\n\t", "\r\n  "]) }

    /// A document: a value with whitespace around it; one byte in five documents is corrupted.
    mutating func document(depth: Int) -> [UInt8] {
        var bytes = Array((space() + value(depth: depth) + space()).utf8)
        if below(5) == 0, !bytes.isEmpty {
            let at = below(bytes.count)
            switch below(3) {
            case 0: bytes[at] = pick(Array("{}[],:\"\\ 0x".utf8) + [0xFF, 0x01])
            case 1: bytes.remove(at: at)
            default: bytes.insert(pick(Array("{}[],:\" 1".utf8)), at: at)
            }
        }
        return bytes
    }

    /// A path of up to 3 components: keys, `[0]`, `[1]`, `[-1]`, `[]`.
    mutating func path() -> JSONPath {
        JSONPath(components: (0..<below(4)).map { _ in
            pick([.key("a"), .key("b"), .key("items"), .key("\u{e9}"), .index(0), .index(1), .index(-1), .each, .each])
        })
    }
}
