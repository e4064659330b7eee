import Foundation
import WebImageCore
import WebImageTestSupport

/// A throw-away Redis Cluster for tests: masters only (three by default), each a
/// ``RedisServerProcess`` on a free loopback port with cluster mode on, joined with
/// `redis-cli --cluster create` and the 16384 slots split evenly.
///
/// ```swift
/// let cluster = try await RedisClusterProcess.start()
/// defer { cluster.stop() }
/// let client = RedisClient(configuration: .init(topology: .cluster(.init(seeds: cluster.ports.map { RedisEndpoint(host: "127.0.0.1", port: $0) }))))
/// ```
///
/// Each server has `--cluster-config-file nodes.conf` in its own temporary directory, a cluster
/// bus on a free port of its own (`--cluster-port`) and `--cluster-node-timeout 2000`.
/// ``start(masters:)`` returns once `CLUSTER INFO` says `cluster_state:ok`, with every slot
/// served and every node known, on every node (a bounded poll, 60 s at most: `swift test` runs
/// every suite at once on busy cores). ``stop()`` kills the servers and removes their
/// directories.
///
/// ``addReplica(of:)`` adds a replica to a master, for failover tests.
///
/// Thread-safety: every method may be called from any thread.
public final class RedisClusterProcess: Sendable {
    /// The masters, in the order their slots were given (the first serves slots 0...5460 of
    /// three).
    public let servers: [RedisServerProcess]

    /// The masters' ports on 127.0.0.1, in the order of ``servers``.
    public var ports: [Int] { servers.map(\.port) }

    /// Where `redis-cli` is: on `PATH`, or in the usual system directories; `nil` when it is not
    /// installed (Debian: `apt-get install redis-tools`).
    public static let cliPath: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let directories = path.split(separator: ":").map(String.init) + ["/usr/bin", "/usr/local/bin", "/opt/homebrew/bin"]
        return directories.map { $0 + "/redis-cli" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// Whether both `redis-server` and `redis-cli` are installed.
    public static var isAvailable: Bool { RedisServerProcess.isAvailable && cliPath != nil }

    /// Replicas added with ``addReplica(of:)``, stopped with the masters.
    private let replicas = Locked<[RedisServerProcess]>([])

    private init(servers: [RedisServerProcess]) {
        self.servers = servers
    }

    deinit {
        stop()
    }

    /// Starts `masters` servers in cluster mode, joins them into one cluster and waits until it
    /// serves every slot.
    /// - Parameter masters: How many masters (at least 3: `redis-cli --cluster create` wants 3).
    /// - Throws: ``HarnessError`` when `redis-server` or `redis-cli` is missing, or the cluster
    ///   does not come up (with what `redis-cli` said).
    public static func start(masters: Int = 3) async throws -> RedisClusterProcess {
        guard cliPath != nil else {
            throw HarnessError("redis-cli is not installed (Debian: apt-get install redis-tools)")
        }
        var servers: [RedisServerProcess] = []
        do {
            for _ in 0..<max(3, masters) {
                servers.append(try await startNode())
            }
        } catch {
            for server in servers { server.stop() }
            throw error
        }
        let cluster = RedisClusterProcess(servers: servers)
        do {
            let outcome = try await ChildProcess.run(
                cliPath ?? "redis-cli",
                ["--cluster", "create"] + cluster.ports.map { "127.0.0.1:\($0)" } + ["--cluster-replicas", "0", "--cluster-yes"],
                mergingErrors: true
            )
            guard outcome.succeeded else {
                throw HarnessError("redis-cli --cluster create failed (\(outcome.status)): \(outcome.outputText.suffix(2000))")
            }
            try await cluster.waitUntilReady(within: .seconds(60))
        } catch {
            cluster.stop()
            throw error
        }
        return cluster
    }

    /// One server in cluster mode, its bus on a free port (another one when that port was
    /// taken before the server bound it).
    private static func startNode() async throws -> RedisServerProcess {
        var lastError: (any Error)?
        for _ in 0..<3 {
            let busPort = try LoopbackSockets.freePort()
            do {
                return try await RedisServerProcess.start(extraArguments: [
                    "--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
                    "--cluster-node-timeout", "2000", "--cluster-port", String(busPort),
                ])
            } catch {
                lastError = error
            }
        }
        throw lastError ?? HarnessError("redis-server did not start in cluster mode")
    }

    /// Stops every server and removes their directories. Idempotent.
    public func stop() {
        for server in servers + replicas.withLock({ $0 }) { server.stop() }
    }

    /// Starts one more server and makes it a replica of the master on `port`
    /// (`redis-cli --cluster add-node ... --cluster-slave`); returns once it has synced with the
    /// master (`master_link_status:up`, a bounded poll of 60 s) and the cluster is ok again.
    /// Stopped by ``stop()``.
    /// - Throws: ``HarnessError`` when it does not start or sync.
    @discardableResult
    public func addReplica(of port: Int) async throws -> RedisServerProcess {
        let replica = try await Self.startNode()
        replicas.withLock { $0.append(replica) }
        let masterID = try await nodeID(port: port)
        let outcome = try await ChildProcess.run(Self.cliPath ?? "redis-cli", [
            "--cluster", "add-node", "127.0.0.1:\(replica.port)", "127.0.0.1:\(port)", "--cluster-slave", "--cluster-master-id", masterID,
        ], mergingErrors: true)
        guard outcome.succeeded else {
            throw HarnessError("redis-cli --cluster add-node of a replica of \(port) failed (\(outcome.status)): \(outcome.outputText.suffix(2000))")
        }
        let deadline = ContinuousClock.now + .seconds(60)
        var last = ""
        while ContinuousClock.now < deadline {
            let info = try await raw(port: replica.port, ["INFO", "replication"])
            last = info.joined(separator: " ")
            if info.contains(where: { $0.hasPrefix("master_link_status:up") }) {
                try await waitUntilReady(within: .seconds(60), nodes: ports.count + replicas.withLock { $0.count })
                return replica
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw HarnessError("the replica on \(replica.port) of \(port) did not sync within 60 s: \(last)")
    }

    /// Runs `redis-cli -h 127.0.0.1 -p PORT arguments...` (plain output, no colors) and returns
    /// what it printed, without the last newline.
    /// - Throws: ``HarnessError`` when it exits with a non-zero status.
    @discardableResult
    public func cli(port: Int, _ arguments: [String]) async throws -> String {
        let outcome = try await ChildProcess.run(Self.cliPath ?? "redis-cli", ["-h", "127.0.0.1", "-p", String(port), "--no-raw"] + arguments, mergingErrors: true)
        guard outcome.succeeded else {
            throw HarnessError("redis-cli -p \(port) \(arguments.joined(separator: " ")) failed (\(outcome.status)): \(outcome.outputText.suffix(2000))")
        }
        var text = outcome.outputText
        if text.hasSuffix("\n") { text.removeLast() }
        return text
    }

    /// Runs `redis-cli --raw` against the server on `port` and returns its output lines (a
    /// reply's value without quotes, an array one element per line).
    public func raw(port: Int, _ arguments: [String]) async throws -> [String] {
        let outcome = try await ChildProcess.run(Self.cliPath ?? "redis-cli", ["-h", "127.0.0.1", "-p", String(port), "--raw"] + arguments, mergingErrors: true)
        guard outcome.succeeded else {
            throw HarnessError("redis-cli -p \(port) \(arguments.joined(separator: " ")) failed (\(outcome.status)): \(outcome.outputText.suffix(2000))")
        }
        // Split at any line break: "\r\n" (CLUSTER INFO's) is one Character, not two.
        return outcome.outputText.split(whereSeparator: \.isNewline).map(String.init)
    }

    /// The cluster node id of the server on `port` (`CLUSTER MYID`).
    public func nodeID(port: Int) async throws -> String {
        guard let id = try await raw(port: port, ["CLUSTER", "MYID"]).first, id.count == 40 else {
            throw HarnessError("CLUSTER MYID on \(port) did not answer a node id")
        }
        return id
    }

    /// The port of the master that serves `slot`, as the server on `port` sees it (`CLUSTER
    /// SLOTS`, through `CLUSTER NODES`).
    public func owner(ofSlot slot: Int, askingPort port: Int? = nil) async throws -> Int {
        let lines = try await raw(port: port ?? ports[0], ["CLUSTER", "NODES"])
        for line in lines {
            let fields = line.split(separator: " ").map(String.init)
            guard fields.count >= 8, fields[2].contains("master") else { continue }
            for range in fields.dropFirst(8) where !range.hasPrefix("[") {
                let bounds = range.split(separator: "-").compactMap { Int($0) }
                let covers = bounds.count == 1 ? bounds[0] == slot : bounds.count == 2 && (bounds[0]...bounds[1]).contains(slot)
                if covers, let address = fields[1].split(separator: "@").first, let portText = address.split(separator: ":").last, let owner = Int(portText) {
                    return owner
                }
            }
        }
        throw HarnessError("no master serves slot \(slot) according to 127.0.0.1:\(port ?? ports[0])")
    }

    /// Moves `slot` from the master on `source` to the master on `target` as `redis-cli
    /// --cluster reshard` does, one step at a time: `IMPORTING` on the target, `MIGRATING` on
    /// the source, `MIGRATE` of each key, then `CLUSTER SETSLOT slot NODE target` on every
    /// master.
    public func migrateSlot(_ slot: Int, from source: Int, to target: Int) async throws {
        let sourceID = try await nodeID(port: source)
        let targetID = try await nodeID(port: target)
        try await cli(port: target, ["CLUSTER", "SETSLOT", String(slot), "IMPORTING", sourceID])
        try await cli(port: source, ["CLUSTER", "SETSLOT", String(slot), "MIGRATING", targetID])
        while true {
            let keys = try await raw(port: source, ["CLUSTER", "GETKEYSINSLOT", String(slot), "100"])
            if keys.isEmpty { break }
            try await migrate(keys, from: source, to: target)
        }
        try await cli(port: target, ["CLUSTER", "SETSLOT", String(slot), "NODE", targetID])
        try await cli(port: source, ["CLUSTER", "SETSLOT", String(slot), "NODE", targetID])
        for port in ports where port != source && port != target {
            try await cli(port: port, ["CLUSTER", "SETSLOT", String(slot), "NODE", targetID])
        }
    }

    /// `MIGRATE 127.0.0.1 target "" 0 5000 KEYS keys...` on the server on `source`.
    /// - Throws: ``HarnessError`` unless it answers `OK`.
    public func migrate(_ keys: [String], from source: Int, to target: Int) async throws {
        let reply = try await raw(port: source, ["MIGRATE", "127.0.0.1", String(target), "", "0", "5000", "KEYS"] + keys)
        guard reply.first == "OK" else {
            throw HarnessError("MIGRATE of \(keys.count) keys from \(source) to \(target) answered \(reply)")
        }
    }

    /// `redis-cli --cluster reshard`: moves `slots` slots from the master on `source` to the
    /// master on `target`, keys included, and returns what it printed.
    /// - Throws: ``HarnessError`` when it fails.
    @discardableResult
    public func reshard(slots: Int, from source: Int, to target: Int) async throws -> String {
        let sourceID = try await nodeID(port: source)
        let targetID = try await nodeID(port: target)
        let outcome = try await ChildProcess.run(Self.cliPath ?? "redis-cli", [
            "--cluster", "reshard", "127.0.0.1:\(source)", "--cluster-from", sourceID, "--cluster-to", targetID,
            "--cluster-slots", String(slots), "--cluster-yes",
        ], mergingErrors: true)
        guard outcome.succeeded else {
            throw HarnessError("redis-cli --cluster reshard of \(slots) slots from \(source) to \(target) failed (\(outcome.status)): \(outcome.outputText.suffix(2000))")
        }
        return outcome.outputText
    }

    /// Waits until every node says `cluster_state:ok`, knows every node and sees every slot
    /// served, polling `CLUSTER INFO` until `timeout` passes.
    private func waitUntilReady(within timeout: Duration, nodes: Int? = nil) async throws {
        let deadline = ContinuousClock.now + timeout
        var last = ""
        while ContinuousClock.now < deadline {
            var ready = true
            for port in ports {
                let info = try await raw(port: port, ["CLUSTER", "INFO"]).joined(separator: "\n")
                let fields = Dictionary(info.split(whereSeparator: \.isNewline).compactMap { line -> (String, String)? in
                    let parts = line.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ":", maxSplits: 1)
                    return parts.count == 2 ? (String(parts[0]), String(parts[1])) : nil
                }, uniquingKeysWith: { first, _ in first })
                if fields["cluster_state"] != "ok" || fields["cluster_slots_ok"] != "16384" || fields["cluster_known_nodes"] != String(nodes ?? ports.count) {
                    ready = false
                    last = "127.0.0.1:\(port): \(info)"
                    break
                }
            }
            if ready { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw HarnessError("the cluster on \(ports) did not reach cluster_state:ok within \(timeout); last CLUSTER INFO of \(last)")
    }
}
