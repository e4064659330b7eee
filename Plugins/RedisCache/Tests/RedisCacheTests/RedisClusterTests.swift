import Foundation
import Testing
import WebImageCore
import RedisServerHarness
import SwiftWebImage
import WebImageTestSupport
@testable import RedisCache

/// The client and the cache on a real Redis Cluster of three masters on loopback ports
/// (``RedisClusterProcess``): sharding, pipelines and multi-key commands across slots, the
/// cache's contract and clear, `MOVED` after a slot migrated, `ASK` and `TRYAGAIN` during a
/// migration, a failover found by a map refresh, and a reshard under load.
@Suite(.whenThePoolResponds, .enabled(if: RedisClusterProcess.isAvailable, "redis-server or redis-cli is not installed (apt-get install redis-server redis-tools): Redis Cluster tests skipped"))
struct RedisClusterTests {
    /// A client configuration for `cluster` with the test timing of ``RedisTestEnvironment``.
    static func configuration(_ cluster: RedisClusterProcess, seeds: [RedisEndpoint]? = nil) -> RedisClient.Configuration {
        var configuration = RedisTestEnvironment.clientConfiguration(port: 1)
        configuration.topology = .cluster(.init(seeds: seeds ?? cluster.ports.map { RedisEndpoint(host: "127.0.0.1", port: $0) }))
        return configuration
    }

    /// A standalone client of each master, for what the cluster client must not be trusted
    /// to tell (where keys are).
    static func masterClients(_ cluster: RedisClusterProcess) -> [RedisClient] {
        cluster.ports.map { RedisClient(configuration: RedisTestEnvironment.clientConfiguration(port: $0)) }
    }

    @Test func keysSpreadOverEveryMasterAndReadBack() async throws {
        let cluster = try await RedisClusterProcess.start()
        defer { cluster.stop() }
        let client = RedisClient(configuration: Self.configuration(cluster))
        for index in 0..<200 {
            #expect(try await client.send(.set(Data("spread:\(index)".utf8), Data("value \(index)".utf8))) == .simpleString("OK"))
        }
        var perMaster: [Int] = []
        for master in Self.masterClients(cluster) {
            perMaster.append(try #require(try await master.send(RedisCommand("DBSIZE")).integer))
        }
        #expect(perMaster.reduce(0, +) == 200, "keys per master: \(perMaster)")
        #expect(perMaster.allSatisfy { $0 >= 40 }, "keys per master: \(perMaster)")
        for index in 0..<200 {
            #expect(try await client.send(.get(Data("spread:\(index)".utf8))) == .bulkString(Data("value \(index)".utf8)))
        }
        #expect(await client.ping())
        #expect(Set(client.nodeStates.map(\.endpoint.port)) == Set(cluster.ports))
        #expect(client.nodeStates.allSatisfy { $0.role == .master && !$0.isInOutage })
        #expect(client.statistics.redirections == 0)
        #expect(client.statistics.connectionErrors == 0)
    }

    @Test func aPipelineMixingSlotsIsOneRoundTripPerMaster() async throws {
        let cluster = try await RedisClusterProcess.start()
        defer { cluster.stop() }
        let client = RedisClient(configuration: Self.configuration(cluster))
        #expect(await client.ping())  // loads the slot map
        let before = client.statistics.roundTrips
        let keys = (0..<60).map { Data("pipeline:\($0)".utf8) }
        let commands = keys.map { RedisCommand.set($0, $0 + Data("!".utf8)) } + [.ping] + keys.reversed().map { RedisCommand.get($0) } + [.pttl(keys[0])]
        let replies = try await client.pipeline(commands)
        #expect(replies.count == commands.count)
        #expect(replies.prefix(60).allSatisfy { $0 == .simpleString("OK") })
        #expect(replies[60] == .simpleString("PONG"))
        for (offset, key) in keys.reversed().enumerated() {
            #expect(replies[61 + offset] == .bulkString(key + Data("!".utf8)))
        }
        #expect(replies[121] == .integer(-1))
        #expect(client.statistics.roundTrips - before == 3, "one round trip per master")
    }

    @Test func multiKeyCommandsSpanSlots() async throws {
        let cluster = try await RedisClusterProcess.start()
        defer { cluster.stop() }
        let client = RedisClient(configuration: Self.configuration(cluster))
        let keys = (0..<30).map { Data("multi:\($0)".utf8) }
        #expect(Set(keys.map { RedisHashSlot.slot(of: $0) }).count > 20)
        _ = try await client.pipeline(keys.map { .set($0, Data("v".utf8)) })
        let absent = [Data("multi:absent:1".utf8), Data("multi:absent:2".utf8)]
        #expect(try await client.send(.exists(keys + absent)) == .integer(30))
        #expect(try await client.send(.exists(keys + keys)) == .integer(60))  // EXISTS counts repeats
        #expect(try await client.send(.unlink(Array(keys.prefix(10)) + absent)) == .integer(10))
        #expect(try await client.send(.del(keys)) == .integer(20))
        #expect(try await client.send(.exists(keys)) == .integer(0))
        #expect(client.statistics.redirections == 0)
    }

    @Test func aDeadSeedIsPassedOver() async throws {
        let cluster = try await RedisClusterProcess.start()
        defer { cluster.stop() }
        let dead = RedisEndpoint(host: "127.0.0.1", port: try LoopbackSockets.freePort())
        let client = RedisClient(configuration: Self.configuration(cluster, seeds: [dead, RedisEndpoint(host: "127.0.0.1", port: cluster.ports[1])]))
        #expect(try await client.send(.set(Data("foo".utf8), Data("bar".utf8))) == .simpleString("OK"))
        #expect(try await client.send(.get(Data("foo".utf8))) == .bulkString(Data("bar".utf8)))
        #expect(Set(client.nodeStates.map(\.endpoint.port)) == Set(cluster.ports), "the dead seed is not a node")
    }

    @Test func theCacheContractHoldsOverTheCluster() async throws {
        let cluster = try await RedisClusterProcess.start()
        defer { cluster.stop() }
        let client = RedisClient(configuration: Self.configuration(cluster))
        let log = LogRecorder()
        for check in ImageCacheContract.Check.allCases {
            // A namespace per check: the clear checks clear only their own.
            try await ImageCacheContract.verify(check, on: RedisTestEnvironment.makeCache(port: 1, client: client, log: log))
        }
        #expect(log.all.isEmpty, "\(log.all)")
        #expect(client.statistics.connectionErrors == 0)
    }

    @Test func clearRemovesTheNamespaceFromEveryMaster() async throws {
        let cluster = try await RedisClusterProcess.start()
        defer { cluster.stop() }
        let client = RedisClient(configuration: Self.configuration(cluster))
        let cleared = RedisTestEnvironment.makeCache(port: 1, namespace: RedisTestEnvironment.uniqueNamespace("cleared"), client: client)
        let kept = RedisTestEnvironment.makeCache(port: 1, namespace: RedisTestEnvironment.uniqueNamespace("kept"), client: client)
        let data = Data("not an image, stored as data".utf8)
        for index in 0..<90 {
            try await cleared.store(nil, data: data, forKey: "https://x/{tag}/\(index).png")
            try await kept.store(nil, data: data, forKey: "https://x/{tag}/\(index).png")
        }
        let masters = Self.masterClients(cluster)
        func count(_ cache: RedisImageCache, on master: RedisClient) async throws -> Int {
            var found = Set<Data>()
            try await master.scanKeys(matching: cache.keyspace.scanPattern, count: 100) { found.formUnion($0) }
            return found.count
        }
        var before: [Int] = []
        for master in masters { before.append(try await count(cleared, on: master)) }
        #expect(before.reduce(0, +) == 90)
        #expect(before.allSatisfy { $0 > 0 }, "the namespace is on every master: \(before)")

        await cleared.clear(cacheType: .all)
        for master in masters {
            #expect(try await count(cleared, on: master) == 0)
        }
        var keptCount = 0
        for master in masters { keptCount += try await count(kept, on: master) }
        #expect(keptCount == 90)
        #expect(await kept.containsImage(forKey: "https://x/{tag}/7.png", cacheType: .all) == .disk)
        #expect(await cleared.containsImage(forKey: "https://x/{tag}/7.png", cacheType: .all) == .none)
        #expect(cleared.statistics.failedMaintenance == 0)
    }

    @Test func movedIsFollowedAfterASlotMigrates() async throws {
        let cluster = try await RedisClusterProcess.start()
        defer { cluster.stop() }
        let client = RedisClient(configuration: Self.configuration(cluster))
        let key = Data("moved:key".utf8)
        #expect(try await client.send(.set(key, Data("before".utf8))) == .simpleString("OK"))
        let slot = RedisHashSlot.slot(of: key)
        let source = try await cluster.owner(ofSlot: slot)
        let target = try #require(cluster.ports.first { $0 != source })
        try await cluster.migrateSlot(slot, from: source, to: target)
        #expect(try await cluster.owner(ofSlot: slot) == target)

        #expect(try await client.send(.get(key)) == .bulkString(Data("before".utf8)))
        #expect(client.statistics.redirections == 1)
        #expect(try await client.send(.set(key, Data("after".utf8))) == .simpleString("OK"))
        let onTarget = RedisClient(configuration: RedisTestEnvironment.clientConfiguration(port: target))
        #expect(try await onTarget.send(.get(key)) == .bulkString(Data("after".utf8)))
        // The MOVED reply fixed the slot in the map: no second redirection.
        #expect(client.statistics.redirections == 1)
        // And began a refresh of the whole map (in the background: wait for it, bounded).
        let deadline = ContinuousClock.now + .seconds(60)
        while client.statistics.topologyRefreshes == 0, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(client.statistics.topologyRefreshes >= 1)
    }

    @Test func askIsFollowedDuringAMigration() async throws {
        let cluster = try await RedisClusterProcess.start()
        defer { cluster.stop() }
        let client = RedisClient(configuration: Self.configuration(cluster))
        let moved = Data("{ask}moved".utf8)
        let staying = Data("{ask}staying".utf8)
        _ = try await client.pipeline([.set(moved, Data("m".utf8)), .set(staying, Data("s".utf8))])
        let slot = RedisHashSlot.slot(of: moved)
        let source = try await cluster.owner(ofSlot: slot)
        let target = try #require(cluster.ports.first { $0 != source })
        let sourceID = try await cluster.nodeID(port: source)
        let targetID = try await cluster.nodeID(port: target)
        try await cluster.cli(port: target, ["CLUSTER", "SETSLOT", String(slot), "IMPORTING", sourceID])
        try await cluster.cli(port: source, ["CLUSTER", "SETSLOT", String(slot), "MIGRATING", targetID])
        try await cluster.migrate(["{ask}moved"], from: source, to: target)

        // The moved key: -ASK from the source, then ASKING + GET on the target.
        #expect(try await client.send(.get(moved)) == .bulkString(Data("m".utf8)))
        #expect(client.statistics.redirections == 1)
        // The key not moved yet: still on the source, no redirection (ASK changed no map).
        #expect(try await client.send(.get(staying)) == .bulkString(Data("s".utf8)))
        #expect(client.statistics.redirections == 1)
        // A new key of the migrating slot is written on the target.
        let created = Data("{ask}created".utf8)
        #expect(try await client.send(.set(created, Data("c".utf8))) == .simpleString("OK"))
        #expect(client.statistics.redirections == 2)
        // Both in one pipeline, and a multi-key command over both nodes of the slot.
        #expect(try await client.pipeline([.get(moved), .get(staying)]) == [.bulkString(Data("m".utf8)), .bulkString(Data("s".utf8))])
        #expect(try await client.send(.exists([staying])) == .integer(1))
        #expect(client.statistics.topologyRefreshes == 0)

        // EXISTS of keys on both sides of the migration: -TRYAGAIN from the source, retried
        // until the migration is over (seen by the source's count of refused EXISTS).
        async let both = client.send(.exists([moved, staying]))
        let limit = ContinuousClock.now + .seconds(60)
        while try await Self.refusedCalls("exists", port: source, cluster: cluster) == 0, ContinuousClock.now < limit {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(try await Self.refusedCalls("exists", port: source, cluster: cluster) >= 1)

        // Finish the migration: MOVED from then on, and every key is found.
        try await cluster.migrateSlot(slot, from: source, to: target)
        #expect(try await both == .integer(2))
        for (key, value) in [(moved, "m"), (staying, "s"), (created, "c")] {
            #expect(try await client.send(.get(key)) == .bulkString(Data(value.utf8)))
        }
        #expect(client.statistics.connectionErrors == 0)
    }

    /// The calls of `command` that the server on `port` refused (a redirection, `-TRYAGAIN`):
    /// `rejected_calls` of `INFO commandstats`.
    static func refusedCalls(_ command: String, port: Int, cluster: RedisClusterProcess) async throws -> Int {
        let line = try await cluster.raw(port: port, ["INFO", "commandstats"]).first { $0.hasPrefix("cmdstat_\(command):") } ?? ""
        let field = line.split(separator: ",").first { $0.hasPrefix("rejected_calls=") }
        return field.flatMap { Int($0.dropFirst("rejected_calls=".count)) } ?? 0
    }

    @Test func aFailedOverMasterIsFoundByARefresh() async throws {
        let cluster = try await RedisClusterProcess.start()
        defer { cluster.stop() }
        let client = RedisClient(configuration: Self.configuration(cluster))
        let keys = (0..<60).map { Data("failover:\($0)".utf8) }
        _ = try await client.pipeline(keys.map { .set($0, $0) })
        let master = cluster.servers[0]
        let replica = try await cluster.addReplica(of: master.port)
        let onMaster = try #require(keys.first { RedisHashSlot.slot(of: $0) <= 5460 })
        #expect(try await cluster.owner(ofSlot: RedisHashSlot.slot(of: onMaster)) == master.port)

        await master.kill()
        // Until the cluster has promoted the replica (node timeout 2 s, then an election), the
        // key's round trips fail; each failure refreshes the map. Poll, bounded.
        let deadline = ContinuousClock.now + .seconds(60)
        var value: RedisValue?
        while ContinuousClock.now < deadline {
            if let reply = try? await client.send(.get(onMaster)), reply == .bulkString(onMaster) {
                value = reply
                break
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(value == .bulkString(onMaster), "the promoted replica answers")
        #expect(client.statistics.topologyRefreshes >= 1)
        let ports = Set(client.nodeStates.map(\.endpoint.port))
        #expect(ports.contains(replica.port) && !ports.contains(master.port), "\(ports)")
        for key in keys {
            #expect(try await client.send(.get(key)) == .bulkString(key))
        }
    }

    @Test func aReshardUnderLoadFailsNoRoundTrip() async throws {
        let cluster = try await RedisClusterProcess.start()
        defer { cluster.stop() }
        let client = RedisClient(configuration: Self.configuration(cluster))
        let log = LogRecorder()
        let cache = RedisTestEnvironment.makeCache(port: 1, client: client, log: log)
        let image = WebImage(bitmap: TestImages.gradient(width: 16, height: 16, seed: 3))
        let data = try RedisTestEnvironment.rawData(image)
        let keys = (0..<400).map { "https://cdn.example.com/reshard/\($0).png" }
        for key in keys {
            try await cache.store(image, data: data, forKey: key)
        }
        let source = cluster.ports[0]
        let target = cluster.ports[1]
        // Keys in the slots that move (0...999 of the first master).
        let moving = keys.filter { RedisHashSlot.slot(of: cache.redisKey(forKey: $0)) < 1000 }
        #expect(moving.count >= 5)

        let done = Locked(false)
        let loops = 4
        async let load: [Int] = withTaskGroup(of: Int.self) { group in
            for worker in 0..<loops {
                group.addTask {
                    var operations = 0
                    var index = worker
                    while !done.withLock({ $0 }) || operations < 50 {
                        // Mostly the keys that move, some others; a store now and then.
                        let key = index % 3 == 0 ? keys[index % keys.count] : moving[index % moving.count]
                        if index % 5 == 0 {
                            try? await cache.store(image, data: data, forKey: key)
                        } else {
                            let hit = await cache.queryImage(forKey: key, options: [], context: WebImageContext(), cacheType: .all)
                            #expect(hit?.image?.pixelSize == image.pixelSize, "query of \(key)")
                        }
                        operations += 1
                        index += loops
                    }
                    return operations
                }
            }
            var total: [Int] = []
            for await count in group { total.append(count) }
            return total
        }
        let output: String
        do {
            output = try await cluster.reshard(slots: 1000, from: source, to: target)
        } catch {
            done.withLock { $0 = true }
            _ = await load
            throw error
        }
        done.withLock { $0 = true }
        let operations = await load
        #expect(output.contains("Moving slot 999 from"))
        #expect(try await cluster.owner(ofSlot: 999) == target)
        for key in moving {
            #expect(await cache.containsImage(forKey: key, cacheType: .all) == .disk)
        }
        let statistics = client.statistics
        let cacheStatistics = cache.statistics
        #expect(cacheStatistics.failedQueries == 0)
        #expect(cacheStatistics.droppedStores == 0)
        #expect(cacheStatistics.misses == 0)
        #expect(statistics.connectionErrors == 0 && statistics.timeouts == 0 && statistics.connectFailures == 0)
        #expect(statistics.redirections >= 1, "operations per worker \(operations), \(moving.count) keys in moved slots")
        #expect(log.all.isEmpty, "\(log.all)")
    }
}
