import Foundation
import Testing
import WebImageTestSupport
import WebImageCore
import RedisServerHarness
@testable import RedisCache

/// The second way the Sentinel routing follows a failover: a round trip that fails on the old
/// master asks the Sentinels and is sent once more to the new master, within its deadline.
/// The `+switch-master` subscription is off here, so that nothing else can move the client.
@Suite(.whenThePoolResponds, .enabled(if: RedisSentinelProcess.isAvailable, "redis-sentinel is not installed (apt-get install redis-sentinel redis-server): Sentinel tests skipped"))
struct SentinelRoutingTests {
    let counters = Locked(RedisClient.Statistics())

    func routing(_ group: RedisSentinelGroup) -> SentinelRouting {
        SentinelRouting(
            .init(sentinels: [RedisEndpoint(host: "127.0.0.1", port: group.sentinel.port)], masterName: group.masterName),
            configuration: RedisTestEnvironment.clientConfiguration(port: 6379),
            counters: counters,
            parser: RESPParser(maxReplySize: 1 << 20),
            followsSwitchMessages: false
        )
    }

    func set(_ key: String, on routing: SentinelRouting) async throws -> [RedisValue] {
        try await routing.pipeline([.set(Data(key.utf8), Data("v".utf8))], what: "SET", deadline: .after(seconds: 60))
    }

    @Test func aReadOnlyReplyFromTheDemotedMasterIsSentAgainToTheNewMaster() async throws {
        let group = try await RedisSentinelGroup.start()
        defer { group.stop() }
        let routing = routing(group)
        defer { routing.shutdown() }
        #expect(try await set("a", on: routing) == [.simpleString("OK")])

        try await group.sentinel.failover()
        try await group.sentinel.waitUntilMaster(port: group.replica.port)
        // Demote the old master as the Sentinel soon would (it does within 10 s).
        let old = RedisClient(configuration: RedisTestEnvironment.clientConfiguration(port: group.master.port))
        defer { old.shutdown() }
        #expect(try await old.send(RedisCommand("REPLICAOF", text: "127.0.0.1", String(group.replica.port))) == .simpleString("OK"))
        let refused = try await old.send(.set(Data("x".utf8), Data("v".utf8)))
        #expect(refused.isError && "\(refused)".contains("READONLY"), "\(refused)")

        // The routing still holds the old master: READONLY, a question, the same SET once more.
        #expect(try await set("b", on: routing) == [.simpleString("OK")])
        #expect(counters.withLock { $0.topologyRefreshes } == 1)
        #expect(counters.withLock { $0.failovers } == 1)
        #expect(try await routing.primaries(deadline: .after(seconds: 60)).map(\.endpoint.port) == [group.replica.port])
        #expect(routing.nodes.filter { $0.role == .master }.map(\.node.endpoint.port) == [group.replica.port])
    }

    @Test func aRefusedConnectionAsksTheSentinelsAndSendsAgainToTheNewMaster() async throws {
        let group = try await RedisSentinelGroup.start()
        defer { group.stop() }
        let routing = routing(group)
        defer { routing.shutdown() }
        #expect(try await set("a", on: routing) == [.simpleString("OK")])

        await group.master.kill()
        try await group.sentinel.waitUntilMaster(port: group.replica.port)
        // One call: the pooled connection is found closed, the reconnect refused, the
        // Sentinel asked, and the SET sent to the promoted replica.
        #expect(try await set("b", on: routing) == [.simpleString("OK")])
        #expect(counters.withLock { $0.topologyRefreshes } == 1)
        #expect(counters.withLock { $0.failovers } == 1)
        #expect(routing.nodes.filter { $0.role == .master }.map(\.node.endpoint.port) == [group.replica.port])
    }

    @Test func aFrozenSentinelIsLeftForTheNextOne() async throws {
        let group = try await RedisSentinelGroup.start()
        defer { group.stop() }
        let second = try await RedisSentinelProcess.start(masterPort: group.master.port, masterName: group.masterName)
        defer { second.stop() }
        // The subscription on, with a keep-alive of 0.3 s instead of 5 s.
        let routing = SentinelRouting(
            .init(sentinels: [group.sentinel.port, second.port].map { RedisEndpoint(host: "127.0.0.1", port: $0) }, masterName: group.masterName),
            configuration: RedisTestEnvironment.clientConfiguration(port: 6379),
            counters: counters,
            parser: RESPParser(maxReplySize: 1 << 20),
            subscriptionKeepAlive: 0.3
        )
        defer { routing.shutdown() }
        #expect(try await set("a", on: routing) == [.simpleString("OK")])
        try await group.sentinel.waitUntilSubscribers(1)

        // Frozen, not closed: no reset tells the subscriber; its unanswered PING does.
        group.sentinel.pause()
        defer { group.sentinel.resume() }
        let moved = try await second.waitUntilSubscribers(1)
        #expect(moved < .seconds(10), "the subscription moved after \(moved)")
    }

    @Test func withoutAnyMasterTheSentinelsAreNotAskedMoreThanOncePerInterval() async throws {
        let group = try await RedisSentinelGroup.start()
        defer { group.stop() }
        let routing = routing(group)
        defer { routing.shutdown() }
        #expect(try await set("a", on: routing) == [.simpleString("OK")])
        await group.master.kill()
        await group.replica.kill()
        // Many failing round trips in a burst: the first asks, the others within 100 ms give up.
        for _ in 0..<20 {
            await #expect(throws: RedisClientError.self) { _ = try await set("b", on: routing) }
        }
        #expect(counters.withLock { $0.topologyRefreshes } >= 1)
        #expect(counters.withLock { $0.topologyRefreshes } < 20)
        #expect(counters.withLock { $0.failovers } == 0)
    }
}
