import Foundation
public import RedisCache
import WebImageCore
import WebImageTestSupport

/// A throw-away Redis Sentinel for tests: `redis-sentinel` on 127.0.0.1, on a free port, with a
/// generated `sentinel.conf` in a temporary directory (removed at ``stop()``) that watches one
/// master with test-friendly timing: down after 500 ms, a quorum of 1, a failover timeout of
/// 2 s.
///
/// ```swift
/// let sentinel = try await RedisSentinelProcess.start(masterPort: master.port)
/// defer { sentinel.stop() }
/// ```
///
/// Readiness is deterministic: ``start(masterPort:masterName:downAfterMilliseconds:failoverTimeoutMilliseconds:)``
/// returns once the Sentinel has logged that it monitors the master and answers `PING`. The
/// process handling (free port, log, orphans, kill) is ``RedisServerProcess``'s.
///
/// A Sentinel learns the replicas from the master's `INFO`, which it asks for at once and then
/// every 10 s: start it after the replicas are in sync (``RedisSentinelGroup`` does), or wait
/// with ``waitUntilReplicaIsKnown(port:within:)``.
///
/// Thread-safety: every method may be called from any thread.
public final class RedisSentinelProcess: Sendable {
    /// The name the Sentinel knows the master by.
    public let masterName: String
    private let process: RedisServerProcess

    /// Where `redis-sentinel` is: on `PATH`, or in the usual system directories; `nil` when it
    /// is not installed (Debian: `apt-get install redis-sentinel`).
    public static let executablePath: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let directories = path.split(separator: ":").map(String.init) + ["/usr/bin", "/usr/local/bin", "/usr/sbin", "/opt/homebrew/bin"]
        return directories.map { $0 + "/redis-sentinel" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// Whether `redis-sentinel` and `redis-server` are installed.
    public static var isAvailable: Bool { executablePath != nil && RedisServerProcess.isAvailable }

    private init(masterName: String, process: RedisServerProcess) {
        self.masterName = masterName
        self.process = process
    }

    /// Starts a Sentinel that watches the master on 127.0.0.1:`masterPort`, and waits until it
    /// answers.
    /// - Parameters:
    ///   - masterPort: The master's port on 127.0.0.1.
    ///   - masterName: The name it is known by (default `"mymaster"`).
    ///   - downAfterMilliseconds: `down-after-milliseconds` (default 500).
    ///   - failoverTimeoutMilliseconds: `failover-timeout` (default 2000).
    /// - Throws: ``HarnessError`` when `redis-sentinel` is missing or does not come up.
    public static func start(masterPort: Int, masterName: String = "mymaster", downAfterMilliseconds: Int = 500, failoverTimeoutMilliseconds: Int = 2000) async throws -> RedisSentinelProcess {
        let flavor = RedisServerProcess.Flavor(
            executablePath: executablePath,
            name: "redis-sentinel",
            prepare: { directory, port in
                // Written again before each launch: the Sentinel rewrites it as it learns.
                let configuration = """
                    port \(port)
                    bind 127.0.0.1
                    sentinel resolve-hostnames no
                    sentinel monitor \(masterName) 127.0.0.1 \(masterPort) 1
                    sentinel down-after-milliseconds \(masterName) \(downAfterMilliseconds)
                    sentinel failover-timeout \(masterName) \(failoverTimeoutMilliseconds)
                    sentinel parallel-syncs \(masterName) 1

                    """
                let file = directory.appendingPathComponent("sentinel.conf")
                try Data(configuration.utf8).writeWithoutSync(to: file)
                return [file.path]
            },
            readinessLine: "+monitor master \(masterName) "
        )
        return RedisSentinelProcess(masterName: masterName, process: try await RedisServerProcess.start(flavor: flavor, extraArguments: []))
    }

    /// The port the Sentinel listens on, on 127.0.0.1.
    public var port: Int { process.port }

    /// Whether the Sentinel process is running.
    public var isRunning: Bool { process.isRunning }

    /// What the Sentinel has logged so far (its failover steps: `+sdown`, `+switch-master`, ...).
    public var log: String { process.log }

    /// Kills the Sentinel at once (SIGKILL). The port stays reserved for ``restart()``.
    public func kill() async { await process.kill() }

    /// Freezes the Sentinel (SIGSTOP): connected, silent. ``resume()`` undoes it.
    public func pause() { process.pause() }

    /// Lets a Sentinel frozen by ``pause()`` run again.
    public func resume() { process.resume() }

    /// Starts the Sentinel again on the same port, from the generated configuration.
    /// - Throws: ``HarnessError`` when it does not come up.
    public func restart() async throws { try await process.restart() }

    /// Stops the Sentinel and removes its directory. Idempotent.
    public func stop() { process.stop() }

    // MARK: Asking the Sentinel

    /// Sends one command to the Sentinel (a fresh client, 5 s timeout); `nil` when it fails.
    public func send(_ command: RedisCommand) async -> RedisValue? {
        let client = RedisClient(configuration: .init(port: port, connectTimeout: 5, commandTimeout: 5, initialReconnectDelay: 0))
        defer { client.shutdown() }
        return try? await client.send(command)
    }

    /// The master's port as the Sentinel says now (`SENTINEL get-master-addr-by-name`), or `nil`.
    public func masterPort() async -> Int? {
        await send(RedisCommand("SENTINEL", text: "get-master-addr-by-name", masterName))?.array?.last?.integer
    }

    /// The replicas the Sentinel knows, with their flags (`SENTINEL replicas`): port → flags.
    public func replicas() async -> [Int: String] {
        var replicas: [Int: String] = [:]
        for entry in await send(RedisCommand("SENTINEL", text: "replicas", masterName))?.array ?? [] {
            let fields = entry.array ?? []
            var values: [String: String] = [:]
            for index in stride(from: 0, to: fields.count - 1, by: 2) {
                if let name = fields[index].string { values[name] = fields[index + 1].string }
            }
            if let port = values["port"].flatMap({ Int($0) }) { replicas[port] = values["flags"] ?? "" }
        }
        return replicas
    }

    /// How many clients are subscribed to a channel of the Sentinel now (`CLIENT LIST`, `sub=`):
    /// a client's failover subscription shows here.
    public func subscriberCount() async -> Int {
        guard let list = await send(RedisCommand("CLIENT", text: "LIST"))?.string else { return 0 }
        return list.split(separator: "\n").filter { line in
            line.split(separator: " ").contains { $0.hasPrefix("sub=") && $0 != "sub=0" }
        }.count
    }

    /// Asks the Sentinel to fail over now (`SENTINEL FAILOVER`), as if the master were down.
    /// - Throws: ``HarnessError`` when it refuses (no replica it can promote, a failover under way).
    public func failover() async throws {
        let reply = await send(RedisCommand("SENTINEL", text: "FAILOVER", masterName))
        guard reply == .simpleString("OK") else {
            throw HarnessError("SENTINEL FAILOVER \(masterName) answered \(reply.map(String.init(describing:)) ?? "nothing")")
        }
    }

    // MARK: Waiting

    /// Waits until the Sentinel names the master on `port` (a failover has ended), polling every
    /// 20 ms.
    /// - Returns: The time it took.
    /// - Throws: ``HarnessError`` with the Sentinel's log when `limit` passes first.
    @discardableResult
    public func waitUntilMaster(port: Int, within limit: Duration = .seconds(60)) async throws -> Duration {
        let start = ContinuousClock.now
        while ContinuousClock.now - start < limit {
            if await masterPort() == port { return ContinuousClock.now - start }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw HarnessError("the Sentinel on port \(port) did not name 127.0.0.1:\(port) as master '\(masterName)' within \(limit); its log:\n\(log)")
    }

    /// Waits until the Sentinel lists the replica on `port` as usable (no `s_down`, `o_down` or
    /// `disconnected` flag), polling every 20 ms.
    /// - Throws: ``HarnessError`` with the Sentinel's log when `limit` passes first.
    public func waitUntilReplicaIsKnown(port: Int, within limit: Duration = .seconds(60)) async throws {
        let start = ContinuousClock.now
        while ContinuousClock.now - start < limit {
            if let flags = await replicas()[port], !["s_down", "o_down", "disconnected"].contains(where: flags.contains) { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw HarnessError("the Sentinel on port \(self.port) does not list the replica on port \(port) within \(limit); its log:\n\(log)")
    }

    /// Waits until exactly `count` clients are subscribed to the Sentinel, polling every 20 ms.
    /// - Returns: The time it took.
    /// - Throws: ``HarnessError`` when `limit` passes first.
    @discardableResult
    public func waitUntilSubscribers(_ count: Int, within limit: Duration = .seconds(60)) async throws -> Duration {
        let start = ContinuousClock.now
        while ContinuousClock.now - start < limit {
            if await subscriberCount() == count { return ContinuousClock.now - start }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw HarnessError("the Sentinel on port \(port) did not have \(count) subscribers within \(limit) (\(await subscriberCount()) now)")
    }
}
