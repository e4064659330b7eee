import Foundation
import RedisCache

extension RedisServerProcess {
    /// Starts a replica of `master` (`--replicaof 127.0.0.1 <port>`) and waits until it is in
    /// sync.
    /// - Parameters:
    ///   - master: The server to replicate.
    ///   - extraArguments: More `redis-server` options.
    /// - Throws: ``HarnessError`` when it does not come up or does not sync within 60 s.
    public static func startReplica(of master: RedisServerProcess, extraArguments: [String] = []) async throws -> RedisServerProcess {
        let replica = try await start(extraArguments: ["--replicaof", "127.0.0.1", String(master.port)] + extraArguments)
        do {
            try await replica.waitUntilInSync(with: master)
        } catch {
            replica.stop()
            throw error
        }
        return replica
    }

    /// The fields of `INFO section` (`role`, `master_link_status`, `cmdstat_get`, ...), empty
    /// when the server does not answer (a fresh client, 5 s timeout).
    public func info(_ section: String) async -> [String: String] {
        let client = RedisClient(configuration: .init(port: port, connectTimeout: 5, commandTimeout: 5, initialReconnectDelay: 0))
        defer { client.shutdown() }
        guard let text = (try? await client.send(RedisCommand("INFO", text: section)))?.string else { return [:] }
        var fields: [String: String] = [:]
        for line in text.split(whereSeparator: \.isNewline) {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[String(line[..<colon])] = String(line[line.index(after: colon)...])
        }
        return fields
    }

    /// The fields of `INFO replication`.
    public func replicationInfo() async -> [String: String] {
        await info("replication")
    }

    /// How many times the server has run the command `name` (`INFO commandstats`, `calls=`;
    /// 0 when never, or when it does not answer).
    public func commandCalls(_ name: String) async -> Int {
        guard let stats = await info("commandstats")["cmdstat_\(name.lowercased())"],
              let calls = stats.split(separator: ",").first(where: { $0.hasPrefix("calls=") }) else { return 0 }
        return Int(calls.dropFirst("calls=".count)) ?? 0
    }

    /// Waits until this server is a replica of `master` with its link up and the master's
    /// replication offset reached, polling every 20 ms.
    /// - Throws: ``HarnessError`` with both logs when `limit` passes first.
    public func waitUntilInSync(with master: RedisServerProcess, within limit: Duration = .seconds(60)) async throws {
        let start = ContinuousClock.now
        var mine: [String: String] = [:]
        var masters: [String: String] = [:]
        while ContinuousClock.now - start < limit {
            mine = await replicationInfo()
            masters = await master.replicationInfo()
            if mine["role"] == "slave", mine["master_port"] == String(master.port), mine["master_link_status"] == "up",
               let offset = mine["slave_repl_offset"].flatMap({ Int($0) }),
               let target = masters["master_repl_offset"].flatMap({ Int($0) }), offset >= target {
                return
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw HarnessError("the replica on port \(port) did not sync with 127.0.0.1:\(master.port) within \(limit) (last seen: replica \(mine), master \(masters)); its log:\n\(log)")
    }

    /// The server's role now (`INFO replication`'s `role`: `master` or `slave`), or `nil`.
    public func role() async -> String? {
        await replicationInfo()["role"]
    }
}
