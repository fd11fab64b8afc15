import Dashboard
import Testing

/// `--redis URL` and the config file's `redis`: what a valid address is, and that a bad one is a clear error.
@Suite("Redis option")
struct RedisOptionTests {
    @Test(arguments: [
        ("redis://127.0.0.1:6380", RedisURL.Address.tcp(host: "127.0.0.1", port: 6380), nil as String?, 0),
        ("redis://localhost", .tcp(host: "localhost", port: 6379), nil, 0),
        ("redis://[::1]:7000/3", .tcp(host: "::1", port: 7000), nil, 3),
        ("redis://:s3cret@10.0.0.5:6379/0", .tcp(host: "10.0.0.5", port: 6379), "s3cret", 0),
        ("unix:///run/redis/redis.sock", .unix(path: "/run/redis/redis.sock"), nil, 0),
    ])
    func validAddresses(text: String, address: RedisURL.Address, password: String?, database: Int) throws {
        let url = try #require(RedisURL(text))
        #expect(url.address == address)
        #expect(url.password == password)
        #expect(url.database == database)
        #expect(!url.description.contains("s3cret"), "the password is never shown")
    }

    @Test(arguments: ["", "http://127.0.0.1:6379", "redis://example.com:6379", "redis://127.0.0.1:0",
                      "redis://127.0.0.1:70000", "redis://127.0.0.1:x", "redis://::1:6379", "redis://[::1",
                      "redis://127.0.0.1/16", "unix://relative.sock", "redis://", "redis://db", "redis://[db]:1",
                      "redis://1.2.3:6379"])
    func invalidAddresses(text: String) {
        #expect(RedisURL(text) == nil)
    }

    @Test func theFlagSetsItAndABadOneIsAClearError() throws {
        var configuration = DashboardConfiguration()
        #expect(configuration.redis == nil, "without it an instance serves alone")
        _ = try CommandLineOptions.parse(["--redis", "redis://127.0.0.1:6379"], into: &configuration)
        #expect(configuration.redis == RedisURL("redis://127.0.0.1:6379"))
        do {
            _ = try CommandLineOptions.parse(["--redis", "redis://db.internal"], into: &configuration)
            Issue.record("a host name was accepted")
        } catch {
            #expect(error.description.contains("--redis takes redis://"))
        }
    }

    @Test func theConfigFileKey() throws {
        let table = """
            {"name": "t", "request": {"url": "http://127.0.0.1:1/x"}, "items": "data", "columns": [{"path": "id"}],
             "pagination": {"style": "offset"}}
            """
        let file = try ConfigFile.parse(Array("{\"redis\": \"unix:///tmp/r.sock\", \"tables\": [\(table)]}".utf8),
                                        file: "c.json", environment: [:])
        #expect(file.redis?.address == .unix(path: "/tmp/r.sock"))
        #expect(throws: ConfigError(file: "c.json", keyPath: "redis", expected: RedisURL.expected)) {
            try ConfigFile.parse(Array("{\"redis\": \"redis://db\", \"tables\": [\(table)]}".utf8), file: "c.json",
                                 environment: [:])
        }
    }
}
