import Redis
import Testing

@Suite struct RESPParserTests {
    /// Every reply type, as one input.
    static let sample: [UInt8] = Array(
        ("+OK\r\n-ERR bad thing\r\n:-42\r\n$5\r\nhe\r\nl\r\n$0\r\n\r\n$-1\r\n*-1\r\n*0\r\n"
         + "*3\r\n:1\r\n*1\r\n+x\r\n$2\r\nab\r\n"
         + "_\r\n#t\r\n#f\r\n,1.5\r\n,-inf\r\n(12345678901234567890\r\n!4\r\nOOPS\r\n=7\r\ntxt:abc\r\n"
         + "%1\r\n+k\r\n:2\r\n~1\r\n:3\r\n>2\r\n+p\r\n:4\r\n").utf8)
        + [UInt8(ascii: "$"), 51, 13, 10, 0, 0xFF, 13, 13, 10]
    static let expected: [RESPValue] = [
        .simpleString("OK"), .error("ERR bad thing"), .integer(-42), .bulkString(Array("he\r\nl".utf8)),
        .bulkString([]), .null, .null, .array([]),
        .array([.integer(1), .array([.simpleString("x")]), .bulkString(Array("ab".utf8))]),
        .null, .boolean(true), .boolean(false), .double(1.5), .double(-.infinity),
        .bigNumber("12345678901234567890"), .error("OOPS"), .bulkString(Array("txt:abc".utf8)),
        .map([RESPPair(key: .simpleString("k"), value: .integer(2))]), .array([.integer(3)]),
        .push([.simpleString("p"), .integer(4)]), .bulkString([0, 0xFF, 13]),
    ]

    private func parseAll(_ pieces: [[UInt8]], limits: RESPLimits = RESPLimits()) throws(RedisError) -> [RESPValue] {
        var parser = RESPParser(limits: limits)
        var values: [RESPValue] = []
        for piece in pieces {
            parser.append(piece)
            while let value = try parser.next() { values.append(value) }
        }
        #expect(parser.bufferedByteCount == 0)
        return values
    }

    @Test func parsesEveryTypeWhole() throws {
        #expect(try parseAll([Self.sample]) == Self.expected)
    }

    @Test func sameRepliesWhenSplitAtEveryByte() throws {
        let bytes = Self.sample
        // Split in two at every position, and byte by byte.
        for cut in 0...bytes.count {
            #expect(try parseAll([Array(bytes[..<cut]), Array(bytes[cut...])]) == Self.expected, "cut at \(cut)")
        }
        #expect(try parseAll(bytes.map { [$0] }) == Self.expected)
    }

    @Test func incompleteInputWaits() throws {
        var parser = RESPParser()
        for prefix in ["", "$", "$5", "$5\r", "$5\r\nab", "$5\r\nabcde", "$5\r\nabcde\r", "*2\r\n:1\r\n", "+O"] {
            parser = RESPParser()
            parser.append(Array(prefix.utf8))
            #expect(try parser.next() == nil, "\(prefix)")
        }
    }

    @Test(arguments: [
        "?x\r\n", ":12a\r\n", ":\r\n", ":99999999999999999999\r\n", "$-2\r\n", "*-5\r\n", "$3\r\nabcd\r\n",
        "+OK\rX", "+OK\n", "#x\r\n", ",abc\r\n", "_x\r\n", "(12x\r\n", "|1\r\n+a\r\n+b\r\n:1\r\n",
    ])
    func malformedInputIsAnError(_ input: String) {
        var parser = RESPParser()
        parser.append(Array(input.utf8))
        #expect(throws: RedisError.self) { try parser.next() }
        // It stays failed: the stream cannot be resynchronised.
        parser.append(Array("+OK\r\n".utf8))
        #expect(throws: RedisError.self) { try parser.next() }
    }

    @Test func limitsRefuseBeforeAllocating() {
        let limits = RESPLimits(maxBulkBytes: 10, maxElements: 3, maxDepth: 2, maxLineBytes: 8, maxReplyBytes: 64)
        let cases: [String] = [
            "$11\r\n",                         // bulk over the limit: refused on its header, nothing read after
            "$9223372036854775807\r\n",        // an absurd length
            "*4\r\n",                          // too many elements
            "%4\r\n",                          // too many pairs
            "*1\r\n*1\r\n*1\r\n:1\r\n",        // too deep
            "+123456789",                      // a line longer than the limit, no CRLF yet
        ]
        // Whole replies over maxReplyBytes (40): incomplete (refused once the known length passes the limit) and
        // complete.
        let oversized = "*3\r\n$10\r\n0123456789\r\n$10\r\n0123456789\r\n$10\r\n0123456789\r\n"
        var small = limits
        small.maxReplyBytes = 40
        let cases2 = [String(oversized.dropLast(12)), oversized]
        for (input, limits) in cases.map({ ($0, limits) }) + cases2.map({ ($0, small) }) {
            var parser = RESPParser(limits: limits)
            parser.append(Array(input.utf8))
            #expect(throws: RedisError.replyTooLarge, "\(input)") { try parser.next() }
        }
        // Exactly at the limits is fine.
        var parser = RESPParser(limits: limits)
        parser.append(Array("$10\r\n0123456789\r\n*3\r\n*1\r\n:1\r\n:2\r\n+12345678\r\n".utf8))
        #expect(try! parser.next() == .bulkString(Array("0123456789".utf8)))
        #expect(try! parser.next() == .array([.array([.integer(1)]), .integer(2), .simpleString("12345678")]))
    }

    @Test func keepsPartialRepliesAcrossCompaction() throws {
        // Many replies, fed in odd-sized pieces, so the buffer compacts while a reply is half read.
        var input: [UInt8] = []
        var expected: [RESPValue] = []
        for index in 0..<5000 {
            let value = Array("value-\(index)-".utf8) + [UInt8](repeating: UInt8(index % 256), count: index % 97)
            input += Array("$\(value.count)\r\n".utf8) + value + [13, 10]
            expected.append(.bulkString(value))
        }
        var pieces: [[UInt8]] = []
        var offset = 0
        var size = 1
        while offset < input.count {
            let end = min(input.count, offset + size)
            pieces.append(Array(input[offset..<end]))
            offset = end
            size = size * 7 % 65_521 + 1
        }
        #expect(try parseAll(pieces) == expected)
    }

    @Test func encodesScriptNamesAsRedisDoes() {
        // `redis-cli SCRIPT LOAD "return 1"` answers e0e1f9fabfc9d4800c877a703b823ac0578ff8db.
        #expect(RedisScript("return 1").sha1 == "e0e1f9fabfc9d4800c877a703b823ac0578ff8db")
        #expect(RedisScript("").sha1 == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
    }

    @Test func backoffDoublesWithinBoundsAndJitters() {
        let backoff = RedisBackoff(initial: .milliseconds(100), maximum: .seconds(1))
        #expect(backoff.delay(afterFailures: 1, random: 1) == .milliseconds(100))
        #expect(backoff.delay(afterFailures: 1, random: 0) == .milliseconds(50))
        #expect(backoff.delay(afterFailures: 3, random: 1) == .milliseconds(400))
        #expect(backoff.delay(afterFailures: 50, random: 1) == .seconds(1))
        #expect(backoff.delay(afterFailures: 50, random: 0) == .milliseconds(500))
    }
}
