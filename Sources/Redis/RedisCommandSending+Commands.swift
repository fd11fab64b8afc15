/// The commands the shared cache, leases and live publishing use, on the pool or a dedicated connection.
extension RedisCommandSending {
    /// `GET key`: the value, or nil when absent.
    public func get(_ key: RedisArgument) async throws(RedisError) -> [UInt8]? {
        let reply = try await send(["GET", key], timeout: nil)
        if reply.isNull { return nil }
        guard let bytes = reply.bytes else { throw .unexpectedReply("GET") }
        return bytes
    }

    /// `SET key value [PX ms] [NX]`: whether it was set (with `onlyIfAbsent`, false when the key existed).
    /// `expiresIn` is rounded up to whole milliseconds.
    @discardableResult
    public func set(_ key: RedisArgument, to value: RedisArgument, expiresIn: Duration? = nil,
                    onlyIfAbsent: Bool = false) async throws(RedisError) -> Bool {
        var arguments: [RedisArgument] = ["SET", key, value]
        if let expiresIn { arguments += ["PX", RedisArgument(milliseconds(expiresIn))] }
        if onlyIfAbsent { arguments.append("NX") }
        let reply = try await send(arguments, timeout: nil)
        if reply.isNull { return false }
        guard reply == .simpleString("OK") else { throw .unexpectedReply("SET") }
        return true
    }

    /// `DEL key...`: how many existed.
    @discardableResult
    public func delete(_ keys: [RedisArgument]) async throws(RedisError) -> Int {
        try await integer(["DEL"] + keys, "DEL")
    }

    /// `PEXPIRE key ms`: whether the key exists (and now expires).
    @discardableResult
    public func expire(_ key: RedisArgument, after duration: Duration) async throws(RedisError) -> Bool {
        try await integer(["PEXPIRE", key, RedisArgument(milliseconds(duration))], "PEXPIRE") == 1
    }

    /// `EVAL source numkeys keys... args...`.
    public func eval(_ source: String, keys: [RedisArgument] = [], arguments: [RedisArgument] = [])
        async throws(RedisError) -> RESPValue {
        try await send(["EVAL", RedisArgument(source), RedisArgument(keys.count)] + keys + arguments, timeout: nil)
    }

    /// `EVALSHA sha1 numkeys keys... args...` (throws a ``RedisError/isNoScript`` error when Redis lacks it).
    public func evalSHA(_ sha1: String, keys: [RedisArgument] = [], arguments: [RedisArgument] = [])
        async throws(RedisError) -> RESPValue {
        try await send(["EVALSHA", RedisArgument(sha1), RedisArgument(keys.count)] + keys + arguments, timeout: nil)
    }

    /// Runs `script` by `EVALSHA`, and by `EVAL` (which makes Redis keep it) when Redis does not have it.
    public func run(_ script: RedisScript, keys: [RedisArgument] = [], arguments: [RedisArgument] = [])
        async throws(RedisError) -> RESPValue {
        do {
            return try await evalSHA(script.sha1, keys: keys, arguments: arguments)
        } catch where error.isNoScript {
            return try await eval(script.source, keys: keys, arguments: arguments)
        }
    }

    /// Deletes `key` only if it holds `value` (a lease's release by its holder): whether it was deleted.
    @discardableResult
    public func deleteIfEqual(_ key: RedisArgument, to value: RedisArgument) async throws(RedisError) -> Bool {
        let reply = try await run(.compareAndDelete, keys: [key], arguments: [value])
        guard let deleted = reply.integer else { throw .unexpectedReply("compare-and-delete") }
        return deleted == 1
    }

    /// Sets `key` to expire after `duration` only if it holds `value` (a lease's renewal by its holder).
    @discardableResult
    public func expireIfEqual(_ key: RedisArgument, to value: RedisArgument, after duration: Duration)
        async throws(RedisError) -> Bool {
        let reply = try await run(.compareAndExpire, keys: [key],
                                  arguments: [value, RedisArgument(milliseconds(duration))])
        guard let extended = reply.integer else { throw .unexpectedReply("compare-and-expire") }
        return extended == 1
    }

    /// `PUBLISH channel message`: how many subscribers got it (on this Redis).
    @discardableResult
    public func publish(_ message: RedisArgument, to channel: RedisArgument) async throws(RedisError) -> Int {
        try await integer(["PUBLISH", channel, message], "PUBLISH")
    }

    /// `XADD key [MAXLEN ~ n] id field value...`: the new entry's ID. `maxLength` trims approximately (`~`:
    /// whole macro nodes, cheap), keeping at least that many entries.
    @discardableResult
    public func streamAdd(_ key: RedisArgument, fields: [RedisStreamField], maxLength: Int? = nil,
                          id: RedisArgument = "*") async throws(RedisError) -> String {
        guard !fields.isEmpty else { throw .invalidConfiguration("XADD needs at least one field") }
        var arguments: [RedisArgument] = ["XADD", key]
        if let maxLength { arguments += ["MAXLEN", "~", RedisArgument(maxLength)] }
        arguments.append(id)
        for field in fields { arguments += [RedisArgument(field.name), RedisArgument(field.value)] }
        guard let id = try await send(arguments, timeout: nil).string else { throw .unexpectedReply("XADD") }
        return id
    }

    /// `XREAD [COUNT n] [BLOCK ms] STREAMS key... id...`: entries after each ID (`$`: only new ones), or [] when
    /// the block ended with none. With `block`, send it on a ``RedisDedicatedConnection`` (it holds the
    /// connection while blocked); the command's timeout is the block plus `timeout` (default: 1 s).
    public func streamRead(_ streams: [(key: RedisArgument, after: String)], count: Int? = nil,
                           block: Duration? = nil, timeout: Duration = .seconds(1))
        async throws(RedisError) -> [RedisStreamBatch] {
        var arguments: [RedisArgument] = ["XREAD"]
        if let count { arguments += ["COUNT", RedisArgument(count)] }
        if let block { arguments += ["BLOCK", RedisArgument(milliseconds(block))] }
        arguments.append("STREAMS")
        arguments += streams.map(\.key) + streams.map { RedisArgument($0.after) }
        let reply = try await send(arguments, timeout: block.map { $0 + timeout })
        if reply.isNull { return [] }
        guard let batches = Self.streamBatches(reply) else { throw .unexpectedReply("XREAD") }
        return batches
    }

    private func integer(_ arguments: [RedisArgument], _ name: String) async throws(RedisError) -> Int {
        guard let value = try await send(arguments, timeout: nil).integer else { throw .unexpectedReply(name) }
        return Int(value)
    }

    private func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        let whole = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        let rest = attoseconds % 1_000_000_000_000_000
        return Int(max(1, whole + (rest > 0 ? 1 : 0)))
    }

    /// RESP2 `[[key, [[id, [f, v, ...]], ...]], ...]` or RESP3 `{key: [...]}`.
    static func streamBatches(_ reply: RESPValue) -> [RedisStreamBatch]? {
        let pairs: [(RESPValue, RESPValue)]
        if case .map(let map) = reply {
            pairs = map.map { ($0.key, $0.value) }
        } else if let elements = reply.elements {
            var list: [(RESPValue, RESPValue)] = []
            for element in elements {
                guard let pair = element.elements, pair.count == 2 else { return nil }
                list.append((pair[0], pair[1]))
            }
            pairs = list
        } else {
            return nil
        }
        var batches: [RedisStreamBatch] = []
        for (key, value) in pairs {
            guard let stream = key.bytes, let rawEntries = value.elements else { return nil }
            var entries: [RedisStreamEntry] = []
            for rawEntry in rawEntries {
                guard let parts = rawEntry.elements, parts.count == 2, let id = parts[0].string,
                      let flat = parts[1].elements, flat.count % 2 == 0
                else { return nil }
                var fields: [RedisStreamField] = []
                for index in stride(from: 0, to: flat.count, by: 2) {
                    guard let name = flat[index].bytes, let value = flat[index + 1].bytes else { return nil }
                    fields.append(RedisStreamField(name: name, value: value))
                }
                entries.append(RedisStreamEntry(id: id, fields: fields))
            }
            batches.append(RedisStreamBatch(stream: stream, entries: entries))
        }
        return batches
    }
}
