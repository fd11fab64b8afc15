import Foundation
import Redis
import Testing
import TestSupport

/// Live tests against Debian's redis-server on a unix socket (one on TCP), each started and stopped (by PID) by
/// the test. Every wait is bounded; outcomes are asserted, never timings.
@Suite struct RedisClientTests {
    private func client(_ path: String, poolSize: Int = 2, commandTimeout: Duration = .seconds(10))
        throws -> RedisClient {
        try testClient(path, poolSize: poolSize, commandTimeout: commandTimeout)
    }

    @Test func commandsAreBinarySafe() async throws {
        let server = try await RedisServerProcess.start()
        let redis = try client(server.socketPath)
        defer { Task { await redis.shutdown() } }
        let value = (0...255).map(UInt8.init) + Array("\r\n$3\r\n".utf8)
        let key = RedisArgument([0, 0xFF, 13, 10])
        #expect(try await redis.set(key, to: RedisArgument(value)))
        #expect(try await redis.get(key) == value)
        #expect(try await redis.get("missing") == nil)
        #expect(try await redis.send("INCRBY", "counter", 5) == .integer(5))
        #expect(try await redis.delete([key, "counter", "missing"]) == 2)
        #expect(try await redis.expire("missing", after: .seconds(5)) == false)
        await #expect(throws: RedisError.self) { try await redis.send("NO-SUCH-COMMAND") }
        do {
            _ = try await redis.send("INCR", RedisArgument(value))  // not a command error: a type error on a key
            _ = try await redis.send("SET", "text", "abc")
            _ = try await redis.send("INCR", "text")
            Issue.record("INCR of a string did not fail")
        } catch {
            #expect(error.serverMessage?.hasPrefix("ERR") == true)
        }
        #expect(redis.isAvailable)
    }

    @Test func setOnlyIfAbsentWithExpiry() async throws {
        let server = try await RedisServerProcess.start()
        let redis = try client(server.socketPath)
        defer { Task { await redis.shutdown() } }
        #expect(try await redis.set("lease", to: "holder-1", expiresIn: .seconds(30), onlyIfAbsent: true))
        #expect(try await redis.set("lease", to: "holder-2", expiresIn: .seconds(30), onlyIfAbsent: true) == false)
        #expect(try await redis.get("lease") == Array("holder-1".utf8))
        let ttl = try await redis.send("PTTL", "lease").integer ?? -1
        #expect(ttl > 0 && ttl <= 30_000)
        // Released only by its holder (compare-and-delete), then free again.
        #expect(try await redis.deleteIfEqual("lease", to: "holder-2") == false)
        #expect(try await redis.expireIfEqual("lease", to: "holder-1", after: .seconds(60)))
        #expect(try await redis.send("PTTL", "lease").integer ?? -1 > 30_000)
        #expect(try await redis.deleteIfEqual("lease", to: "holder-1"))
        #expect(try await redis.set("lease", to: "holder-2", expiresIn: .milliseconds(50), onlyIfAbsent: true))
        // The PX expiry frees it by itself.
        #expect(await eventually { (try? await redis.get("lease")) == .some(nil) })
        #expect(try await redis.set("lease", to: "holder-3", onlyIfAbsent: true))
        // EVALSHA after the server forgot its scripts: falls back to EVAL.
        _ = try await redis.send("SCRIPT", "FLUSH")
        await #expect(throws: RedisError.self) {
            try await redis.evalSHA(RedisScript.compareAndDelete.sha1, keys: ["lease"], arguments: ["holder-3"])
        }
        #expect(try await redis.deleteIfEqual("lease", to: "holder-3"))
        let loaded = try await redis.send("SCRIPT", "LOAD", "return 1")
        #expect(loaded == .bulkString(Array(RedisScript("return 1").sha1.utf8)))
    }

    @Test func pipelinesManyConcurrentCommands() async throws {
        let server = try await RedisServerProcess.start()
        let redis = try client(server.socketPath)
        defer { Task { await redis.shutdown() } }
        let count = 2000
        let replies = try await withThrowingTaskGroup(of: Int64.self) { group in
            for _ in 0..<count {
                group.addTask { try await redis.send("INCR", "n").integer ?? -1 }
            }
            return try await group.reduce(into: [Int64]()) { $0.append($1) }
        }
        // Every command got its own reply: each INCR result exactly once.
        #expect(replies.sorted() == (1...Int64(count)).map { $0 })
        #expect(try await redis.get("n") == Array(String(count).utf8))
    }

    @Test func overTCP() async throws {
        let server = try await RedisServerProcess.start(tcp: true)
        let port = try #require(server.port)
        let redis = try RedisClient(configuration: RedisConfiguration(address: .tcp(host: "127.0.0.1", port: port),
                                                                      commandTimeout: .seconds(10)))
        defer { Task { await redis.shutdown() } }
        #expect(try await redis.send("PING") == .simpleString("PONG"))
        #expect(try await redis.set("k", to: "v"))
        #expect(try await redis.get("k") == Array("v".utf8))
    }

    @Test func aCommandWithoutReplyTimesOut() async throws {
        let fake = try FakeRedisServer()  // connects (into its backlog), never answers
        let redis = try client(fake.path, poolSize: 1, commandTimeout: .milliseconds(300))
        defer { Task { await redis.shutdown() } }
        await #expect(throws: RedisError.timedOut) { try await redis.send("PING") }
        await #expect(throws: RedisError.timedOut) { try await redis.send(["PING"], timeout: .milliseconds(100)) }
    }

    @Test func shutdownFailsWaitingCommands() async throws {
        let fake = try FakeRedisServer()
        let redis = try client(fake.path, poolSize: 1, commandTimeout: .seconds(60))
        let waiting = Task { await failure { _ = try await redis.send("PING") } }
        // Once the command has reached the server (which never answers), shut down: it fails at once, not after its 60 s.
        try await fake.acceptAndWrite([])
        await redis.shutdown()
        #expect(await waiting.value == RedisError.shutdown)
        await #expect(throws: RedisError.shutdown) { try await redis.send("PING") }
    }

    @Test(arguments: [
        ("$99999999999\r\n", RedisError.replyTooLarge),
        ("*99999999999\r\n", RedisError.replyTooLarge),
        ("?garbage\r\n", RedisError.protocolViolation("unknown reply type byte 63")),
    ])
    func aHostileServerGetsAnError(_ reply: String, _ expected: RedisError) async throws {
        let fake = try FakeRedisServer()
        let redis = try client(fake.path, poolSize: 1)
        defer { Task { await redis.shutdown() } }
        // Two commands in one write: the reply at fault is the first one's; the second only shared the connection.
        async let results = redis.pipeline([["GET", "k"], ["GET", "k2"]])
        try await fake.acceptAndWrite(Array(reply.utf8))
        #expect(await results == [.failure(expected), .failure(.connectionLost)])
    }

    @Test func downThenUpAfterTheServerRestarts() async throws {
        let server = try await RedisServerProcess.start()
        let redis = try client(server.socketPath, poolSize: 3)
        defer { Task { await redis.shutdown() } }
        let health = Recorder(redis.healthChanges())
        #expect(await eventually { health.all == [true] })
        #expect(try await redis.set("k", to: "before"))
        #expect(await eventually { redis.statistics.connectionsOpened == 3 })
        // A command in flight when the server dies fails with a clear error (BLPOP: in flight until then).
        let blocked = redis.makeDedicatedConnection()
        let inFlight = Task {
            await failure { _ = try await blocked.send(["BLPOP", "never", 0], timeout: .seconds(120)) }
        }
        #expect(await eventually { await isBlocked(in: "blpop", redis) })

        try await server.kill()
        #expect(await inFlight.value == RedisError.connectionLost)
        #expect(await eventually { health.all == [true, false] })
        // At least the pool's 3 and the dedicated one (more if a command timed out on this busy machine before the kill:
        // that connection counts as lost too, and its replacement may be lost again).
        #expect(redis.statistics.connectionsLost >= 4)
        #expect(!redis.isAvailable)
        await #expect(throws: RedisError.unavailable) { try await redis.send("PING") }

        try await server.restart()
        #expect(await eventually { health.all == [true, false, true] })
        // The same client works again (a new, empty server: no persistence).
        #expect(try await redis.get("k") == nil)
        #expect(try await redis.send("PING") == .simpleString("PONG"))
        #expect(health.all == [true, false, true])
        // The dedicated connection reconnects by itself too (on its own backoff: until then, `.unavailable`).
        #expect(await eventually { (try? await blocked.send("PING")) == .simpleString("PONG") })
    }

    @Test func downFromTheStartWhenNothingListens() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let redis = try client(directory + "/nothing.sock")
        defer { Task { await redis.shutdown() } }
        let health = Recorder(redis.healthChanges())
        #expect(await eventually { health.all == [false] })
        await #expect(throws: RedisError.unavailable) { try await redis.send("PING") }
    }

    @Test func invalidConfigurationIsRefused() {
        let refused = [
            RedisConfiguration(address: .tcp(host: "redis.example", port: 6379)),  // a name: would need DNS
            RedisConfiguration(address: .tcp(host: "127.0.0.1", port: 0)),
            RedisConfiguration(address: .unix(path: "/tmp/x"), poolSize: 0),
            RedisConfiguration(address: .unix(path: String(repeating: "x", count: 200))),
        ]
        for configuration in refused {
            #expect(throws: RedisError.self) { try RedisClient(configuration: configuration) }
        }
    }
}

extension RedisClientTests {
    @Test func cancellingTheTaskFailsTheCommandAtOnce() async throws {
        let fake = try FakeRedisServer()  // never answers
        let redis = try client(fake.path, poolSize: 1, commandTimeout: .seconds(300))
        defer { Task { await redis.shutdown() } }
        let waiting = Task { await failure { _ = try await redis.send("BLPOP", "nothing", 0) } }
        try await fake.acceptAndWrite([])   // the command has reached the server, which never answers
        waiting.cancel()
        // Without cancellation this would wait for the 300 s timeout.
        #expect(await waiting.value == RedisError.cancelled)
        // An already cancelled task does not send at all.
        let late = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await failure { _ = try await redis.send("PING") }
        }
        #expect(await late.value == RedisError.cancelled)
    }
}

extension RedisClientTests {
    @Test func authenticatesAndSelectsOnEveryConnection() async throws {
        let server = try await RedisServerProcess.start(["--requirepass", "s3cret"])
        func connect(password: String?, database: Int) throws -> RedisClient {
            try RedisClient(configuration: RedisConfiguration(
                address: .unix(path: server.socketPath), poolSize: 2, connectTimeout: .seconds(10),
                commandTimeout: .seconds(10), reconnectBackoff: RedisBackoff(initial: .milliseconds(20),
                                                                            maximum: .milliseconds(200)),
                password: password, database: database))
        }
        let three = try connect(password: "s3cret", database: 3)
        let zero = try connect(password: "s3cret", database: 0)
        let wrong = try connect(password: "wrong", database: 0)
        defer { Task { await three.shutdown(); await zero.shutdown(); await wrong.shutdown() } }
        // Both pooled connections of `three` select database 3 (round robin: two SETs, one on each).
        #expect(try await three.set("a", to: "3"))
        #expect(try await three.set("b", to: "3"))
        #expect(try await three.send("DBSIZE") == .integer(2))
        #expect(try await three.send("DBSIZE") == .integer(2))
        #expect(try await zero.get("a") == nil)
        #expect(try await zero.send("DBSIZE") == .integer(0))
        // A wrong password is never "up": commands fail, health says down.
        let health = Recorder(wrong.healthChanges())
        #expect(await eventually { health.all == [false] })
        await #expect(throws: RedisError.self) { try await wrong.send("PING") }
        #expect(!wrong.isAvailable)
    }
}

extension RedisClientTests {
    @Test func aSlowServerTimesOutThenTheSameClientWorks() async throws {
        let server = try await RedisServerProcess.start(["--enable-debug-command", "yes"])
        let redis = try client(server.socketPath, poolSize: 1)
        defer { Task { await redis.shutdown() } }
        #expect(try await redis.send("PING") == .simpleString("PONG"))
        await #expect(throws: RedisError.timedOut) {
            try await redis.send(["DEBUG", "SLEEP", "2"], timeout: .milliseconds(200))
        }
        #expect(redis.statistics.commandsTimedOut == 1)
        // The connection it was on is replaced at once; the next command waits for the server to wake up.
        #expect(try await redis.send("PING") == .simpleString("PONG"))
        #expect(redis.isAvailable)
    }
}

extension RedisClientTests {
    @Test func pipelineKeepsATransactionWholeOnOneConnection() async throws {
        let server = try await RedisServerProcess.start()
        let redis = try client(server.socketPath, poolSize: 4)
        defer { Task { await redis.shutdown() } }
        // Many at once over a pool of 4: each MULTI ... EXEC must reach one connection whole, or EXEC fails
        // ("EXEC without MULTI") or a command runs outside its transaction.
        let results = await withTaskGroup(of: [Result<RESPValue, RedisError>].self) { group in
            for index in 0..<50 {
                group.addTask {
                    await redis.pipeline([["MULTI"], ["SET", "t\(index)", "1"], ["INCRBY", "t\(index)", "\(index)"],
                                          ["EXEC"]])
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 50)
        for result in results {
            let replies = result.map { try? $0.get() }
            #expect(replies.count == 4)
            #expect(replies[0] == .simpleString("OK"))
            #expect(replies[1] == .simpleString("QUEUED") && replies[2] == .simpleString("QUEUED"))
            guard case .array(let executed)? = replies[3], executed.count == 2 else {
                Issue.record("EXEC: \(String(describing: replies[3]))")
                continue
            }
            #expect(executed[0] == .simpleString("OK"))
        }
        for index in 0..<50 {
            #expect(try await redis.get("t\(index)") == Array("\(1 + index)".utf8))
        }
        // One command's error reply is that command's result; the others still succeed.
        let mixed = await redis.pipeline([["SET", "s", "x"], ["INCR", "s"], ["GET", "s"]])
        #expect(try mixed[0].get() == .simpleString("OK"))
        #expect(throws: RedisError.self) { try mixed[1].get() }
        #expect(try mixed[2].get() == .bulkString(Array("x".utf8)))
        #expect(await redis.pipeline([]).isEmpty)
    }
}

extension RedisClientTests {
    @Test func aRESP3PushIsNeverACommandsReply() async throws {
        let fake = try FakeRedisServer()
        let redis = try client(fake.path, poolSize: 1)
        defer { Task { await redis.shutdown() } }
        async let reply = redis.pipeline([["GET", "k"]])
        // An out-of-band push first, then the reply to GET.
        try await fake.acceptAndWrite(Array(">2\r\n+invalidate\r\n*1\r\n$1\r\nk\r\n$5\r\nvalue\r\n".utf8))
        #expect(try await reply[0].get() == .bulkString(Array("value".utf8)))
    }
}
