import Foundation
import Testing
import RedisCache
import RedisServerHarness
import SwiftWebImage
import WebImageTestSupport

/// The client on a Sentinel-managed master: real `redis-server`s (a master and its replica) and
/// a real `redis-sentinel`, each test with its own on free loopback ports. Failovers are real:
/// the master killed, or `SENTINEL FAILOVER`.
@Suite(.whenThePoolResponds, .enabled(if: RedisSentinelProcess.isAvailable, "redis-sentinel is not installed (apt-get install redis-sentinel redis-server): Sentinel tests skipped"))
struct RedisSentinelTests {
    static let image = TestImages.still(width: 8, height: 8, seed: 5)

    /// A client of `group`'s master through `sentinels` (default: the group's Sentinel), with
    /// the test timing of ``RedisTestEnvironment/clientConfiguration(port:commandTimeout:connectTimeout:maxConnections:initialReconnectDelay:maximumReconnectDelay:)``.
    static func client(
        sentinels: [Int],
        masterName: String,
        readFromReplicas: Bool = false,
        commandTimeout: TimeInterval = 60,
        connectTimeout: TimeInterval = 60,
        initialReconnectDelay: TimeInterval = 0.05
    ) -> RedisClient {
        var configuration = RedisTestEnvironment.clientConfiguration(port: 6379, commandTimeout: commandTimeout, connectTimeout: connectTimeout, initialReconnectDelay: initialReconnectDelay)
        configuration.topology = .sentinel(.init(
            sentinels: sentinels.map { RedisEndpoint(host: "127.0.0.1", port: $0) },
            masterName: masterName,
            readFromReplicas: readFromReplicas
        ))
        return RedisClient(configuration: configuration)
    }

    /// A plain client of one server, to look behind the Sentinel client's back.
    static func direct(_ port: Int) -> RedisClient {
        RedisClient(configuration: RedisTestEnvironment.clientConfiguration(port: port))
    }

    static func masterPort(of client: RedisClient) -> Int? {
        client.nodeStates.first { $0.role == .master }?.endpoint.port
    }

    @Test func theClientFindsTheMasterThroughTheSentinel() async throws {
        let group = try await RedisSentinelGroup.start()
        defer { group.stop() }
        let client = Self.client(sentinels: [group.sentinel.port], masterName: group.masterName)
        defer { client.shutdown() }
        #expect(client.nodeStates.map(\.role) == [.sentinel], "nothing is asked before the first round trip")
        #expect(client.statistics.connectionsOpened == 0)

        let key = Data("sentinel-key".utf8)
        #expect(try await client.send(.set(key, Data("v".utf8))) == .simpleString("OK"))
        #expect(try await client.send(.get(key)) == .bulkString(Data("v".utf8)))
        let direct = Self.direct(group.master.port)
        defer { direct.shutdown() }
        #expect(try await direct.send(.get(key)) == .bulkString(Data("v".utf8)), "the write went to the master")

        #expect(Self.masterPort(of: client) == group.master.port)
        #expect(client.nodeStates.filter { $0.role == .sentinel }.map(\.endpoint.port) == [group.sentinel.port])
        #expect(client.statistics.failovers == 0)
        #expect(client.statistics.topologyRefreshes == 0)
        #expect(client.configuration.endpoint == "sentinel master \(group.masterName) via 127.0.0.1:\(group.sentinel.port)")

        var scanned: [Data] = []
        try await client.scanKeys(matching: Data("sentinel-*".utf8)) { scanned += $0 }
        #expect(scanned == [key], "SCAN walks the master")
    }

    @Test func sentinelsThatAreDownOrDoNotKnowTheMasterArePassed() async throws {
        let group = try await RedisSentinelGroup.start()
        defer { group.stop() }
        // A Sentinel that watches the same server under another name: null for ours.
        let other = try await RedisSentinelProcess.start(masterPort: group.master.port, masterName: "other")
        defer { other.stop() }
        let closed = try ClosedLoopbackPort()
        let client = Self.client(sentinels: [closed.port, other.port, group.sentinel.port], masterName: group.masterName)
        defer { client.shutdown() }
        #expect(try await client.send(.ping) == .simpleString("PONG"))
        #expect(Self.masterPort(of: client) == group.master.port)
        #expect(client.statistics.connectFailures == 1, "the closed port")
        withExtendedLifetime(closed) {}
    }

    @Test func anUnknownMasterNameIsAClearError() async throws {
        // No master needed: the Sentinel answers null for a name it does not watch.
        let absentMaster = try ClosedLoopbackPort()
        let sentinel = try await RedisSentinelProcess.start(masterPort: absentMaster.port)
        defer { sentinel.stop() }
        let closed = try ClosedLoopbackPort()
        let client = Self.client(sentinels: [sentinel.port, closed.port], masterName: "no-such-master", initialReconnectDelay: 0)
        defer { client.shutdown() }
        let error = await #expect(throws: WebImageError.self) { try await client.send(.get(Data("k".utf8))) }
        #expect(error?.code == .cacheFailure)
        #expect((error?.underlyingError as? RedisClientError)?.kind == .connectFailed)
        let message = error?.message ?? ""
        #expect(message.contains("no Sentinel gave the address of master 'no-such-master'"), "\(message)")
        #expect(message.contains("127.0.0.1:\(sentinel.port): no such master"), "\(message)")
        #expect(message.contains("127.0.0.1:\(closed.port): cannot connect"), "\(message)")
        #expect(Self.masterPort(of: client) == nil)
        #expect(await client.ping() == false)
        withExtendedLifetime((closed, absentMaster)) {}
    }

    @Test func aKilledMasterIsReplacedByThePromotedReplicaWithinFiveSeconds() async throws {
        let group = try await RedisSentinelGroup.start()
        defer { group.stop() }
        // Short timeouts: no query may hang while the master is gone.
        let client = Self.client(sentinels: [group.sentinel.port], masterName: group.masterName, commandTimeout: 1, connectTimeout: 0.5)
        defer { client.shutdown() }
        let cache = RedisTestEnvironment.makeCache(port: 0, client: client)
        let data = try RedisTestEnvironment.rawData(Self.image)
        // The first store may miss its 1 s when the whole suite runs on two busy cores: poll.
        let setupStart = ContinuousClock.now
        while (try? await cache.store(Self.image, data: data, forKey: "before")) == nil {
            try #require(ContinuousClock.now - setupStart < .seconds(60), "the first store never succeeded")
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(await cache.queryImage(forKey: "before") != nil)
        try await group.replica.waitUntilInSync(with: group.master)
        let replica = Self.direct(group.replica.port)
        defer { replica.shutdown() }

        await group.master.kill()
        let killedAt = ContinuousClock.now
        var landedAfter: Duration?
        var promotedAfter: Duration?
        var slowestQuery: Duration = .zero
        var misses = 0
        var index = 0
        // Stores and queries in a loop until a store lands on the promoted replica (15 s at most).
        while landedAfter == nil, ContinuousClock.now - killedAt < .seconds(15) {
            if promotedAfter == nil, await group.sentinel.masterPort() == group.replica.port {
                promotedAfter = ContinuousClock.now - killedAt
            }
            let queryStart = ContinuousClock.now
            if await cache.queryImage(forKey: "before") == nil { misses += 1 }
            slowestQuery = max(slowestQuery, ContinuousClock.now - queryStart)
            let key = "during-\(index)"
            index += 1
            if (try? await cache.store(Self.image, data: data, forKey: key)) != nil,
               try await replica.send(.exists([cache.redisKey(forKey: key)])) == .integer(1) {
                // The old master is dead: a store that succeeded went to the promoted replica.
                landedAfter = ContinuousClock.now - killedAt
            } else {
                // Polling: the failover takes seconds; do not spin on the two cores.
                try await Task.sleep(for: .milliseconds(10))
            }
        }
        let landed = try #require(landedAfter, "no store reached the promoted replica within 15 s; the Sentinel's log:\n\(group.sentinel.log)")
        print("RedisSentinelTests: writes reach the new master \(landed.components.seconds * 1000 + landed.components.attoseconds / 1_000_000_000_000_000) ms after the kill; \(index) stores tried, \(misses) query misses, slowest query \(slowestQuery)")
        // The Sentinel's part (down-after-milliseconds 500, an election) is its own and, in the
        // full parallel suite on two busy cores, took up to 5 s; the client's part is bounded
        // from the moment the Sentinel names the new master.
        let promoted = promotedAfter ?? landed
        #expect(landed - promoted < .seconds(5), "the client used the new master \(landed - promoted) after the Sentinel named it (\(landed) after the kill)")
        #expect(slowestQuery < .seconds(10), "a query waited \(slowestQuery) (command timeout 1 s)")
        #expect(Self.masterPort(of: client) == group.replica.port)
        #expect(client.statistics.failovers == 1)
        #expect(await cache.queryImage(forKey: "before") != nil, "the replicated entry is a hit on the new master")
        #expect(await group.replica.role() == "master")
    }

    @Test func switchMasterMovesTheClientWithoutWaitingForAFailure() async throws {
        let group = try await RedisSentinelGroup.start()
        defer { group.stop() }
        let client = Self.client(sentinels: [group.sentinel.port], masterName: group.masterName)
        defer { client.shutdown() }
        #expect(try await client.send(.set(Data("a".utf8), Data("1".utf8))) == .simpleString("OK"))
        // The first master starts the client's subscription; the failover must come after it.
        try await group.sentinel.waitUntilSubscribers(1)

        try await group.sentinel.failover()
        let start = ContinuousClock.now
        // No round trip meanwhile: only the +switch-master message can move the client.
        while client.statistics.failovers == 0, ContinuousClock.now - start < .seconds(60) {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(client.statistics.failovers == 1, "the Sentinel's log:\n\(group.sentinel.log)")
        #expect(client.statistics.topologyRefreshes == 0, "no failure and no question to the Sentinel was needed")
        #expect(Self.masterPort(of: client) == group.replica.port)
        #expect(client.nodeStates.filter { $0.role == .master }.count == 1, "the old master's node is gone")

        #expect(try await client.send(.set(Data("b".utf8), Data("2".utf8))) == .simpleString("OK"))
        let promoted = Self.direct(group.replica.port)
        defer { promoted.shutdown() }
        #expect(try await promoted.send(.get(Data("b".utf8))) == .bulkString(Data("2".utf8)))

        // shutdown() ends the subscription (its thread checks every 100 ms).
        client.shutdown()
        let unsubscribed = try await group.sentinel.waitUntilSubscribers(0, within: .seconds(10))
        #expect(unsubscribed < .seconds(5))
    }

    @Test func theSubscriptionMovesToTheNextSentinelWhenItsSentinelDies() async throws {
        let group = try await RedisSentinelGroup.start()
        defer { group.stop() }
        let second = try await RedisSentinelProcess.start(masterPort: group.master.port, masterName: group.masterName)
        defer { second.stop() }
        try await second.waitUntilReplicaIsKnown(port: group.replica.port)
        let client = Self.client(sentinels: [group.sentinel.port, second.port], masterName: group.masterName)
        defer { client.shutdown() }
        #expect(try await client.send(.ping) == .simpleString("PONG"))
        try await group.sentinel.waitUntilSubscribers(1)
        #expect(await second.subscriberCount() == 0)

        await group.sentinel.kill()
        try await second.waitUntilSubscribers(1)
        try await second.failover()
        let start = ContinuousClock.now
        while client.statistics.failovers == 0, ContinuousClock.now - start < .seconds(60) {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(client.statistics.failovers == 1, "the second Sentinel's log:\n\(second.log)")
        #expect(Self.masterPort(of: client) == group.replica.port)
    }

    @Test func readsGoToTheReplicaAndFallBackToTheMaster() async throws {
        let group = try await RedisSentinelGroup.start()
        defer { group.stop() }
        let client = Self.client(sentinels: [group.sentinel.port], masterName: group.masterName, readFromReplicas: true, initialReconnectDelay: 0.05)
        defer { client.shutdown() }
        let key = Data("read-key".utf8)
        #expect(try await client.send(.set(key, Data("v".utf8))) == .simpleString("OK"))
        try await group.replica.waitUntilInSync(with: group.master)
        let masterGets = await group.master.commandCalls("get")
        let replicaGets = await group.replica.commandCalls("get")

        for _ in 0..<10 {
            #expect(try await client.send(.get(key)) == .bulkString(Data("v".utf8)))
        }
        // Read-only pipelines go to the replica; one with a write goes to the master.
        #expect(try await client.pipeline([.get(key), .pttl(key), .exists([key])]) == [.bulkString(Data("v".utf8)), .integer(-1), .integer(1)])
        #expect(try await client.pipeline([.get(key), .set(Data("other".utf8), Data("w".utf8))]) == [.bulkString(Data("v".utf8)), .simpleString("OK")])
        #expect(await group.replica.commandCalls("get") - replicaGets == 11)
        #expect(await group.master.commandCalls("get") - masterGets == 1)
        #expect(client.nodeStates.filter { $0.role == .replica }.map(\.endpoint.port) == [group.replica.port])

        // The replica gone: reads fall back to the master.
        await group.replica.kill()
        #expect(try await client.send(.get(key)) == .bulkString(Data("v".utf8)))
        #expect(try await client.send(.get(key)) == .bulkString(Data("v".utf8)))
        #expect(await group.master.commandCalls("get") - masterGets == 3)
    }
}
