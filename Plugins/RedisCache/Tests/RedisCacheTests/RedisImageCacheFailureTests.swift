import Foundation
import Testing
import RedisCache
import RedisServerHarness
import SwiftWebImage
import WebImageTestSupport

/// The failure policy: Redis down, slow or unreachable makes a query a miss and drops a store
/// (counted and logged), never longer than the command timeout; the same cache works again
/// once Redis is back.
@Suite(.whenThePoolResponds) struct RedisImageCacheFailureTests {
    static let image = TestImages.still(width: 8, height: 8, seed: 5)

    @Test(.enabled(if: RedisTestEnvironment.hasRedis, "redis-server is not installed (apt-get install redis-server): kill/restart test skipped"))
    func redisKilledMidTestThenRestarted() async throws {
        let server = try await RedisServerProcess.start()
        defer { server.stop() }
        let log = LogRecorder()
        let cache = RedisTestEnvironment.makeCache(port: server.port, log: log)
        let data = try RedisTestEnvironment.rawData(Self.image)
        try await cache.store(Self.image, data: data, forKey: "before")
        #expect(await cache.queryImage(forKey: "before") != nil)

        await server.kill()
        #expect(await cache.queryImage(forKey: "before") == nil)
        #expect(cache.statistics.failedQueries == 1)
        #expect(log.count(of: .error, containing: "the query of key \"before\" is a miss") == 1)

        let error = await #expect(throws: WebImageError.self) { try await cache.store(Self.image, data: data, forKey: "during") }
        #expect(error?.code == .cacheFailure)
        #expect(error?.message.contains("dropped the store of key \"during\"") == true)
        #expect(cache.statistics.droppedStores == 1)
        #expect(log.count(of: .error, containing: "dropped the store of key \"during\"") == 1)
        #expect(await cache.containsImage(forKey: "before", cacheType: .all) == .none)
        await cache.removeImage(forKey: "before", cacheType: .all)
        await cache.clear(cacheType: .all)
        #expect(cache.statistics.failedMaintenance == 3)

        // Back: the same cache, the same client, no restart of either.
        try await server.restart()
        try await waitOutTheBackoff(of: cache.client)
        try await cache.store(Self.image, data: data, forKey: "after")
        #expect(await cache.queryImage(forKey: "after")?.image?.pixelSize == Self.image.pixelSize)
        #expect(cache.statistics.stores == 2)
        #expect(cache.client.reconnectAllowedAt == nil)
    }

    @Test func aSilentServerIsAMissAndADroppedStoreWithinTheCommandTimeout() async throws {
        let server = try SilentServer(mode: .silent)
        defer { server.stop() }
        let log = LogRecorder()
        let client = RedisClient(configuration: .init(port: server.port, commandTimeout: 0.3, initialReconnectDelay: 0))
        let cache = RedisTestEnvironment.makeCache(port: server.port, client: client, log: log)

        let queryStart = ContinuousClock.now
        #expect(await cache.queryImage(forKey: "k") == nil)
        #expect(ContinuousClock.now - queryStart < RedisTestEnvironment.timeoutBound)

        let storeStart = ContinuousClock.now
        await #expect(throws: WebImageError.self) { try await cache.store(Self.image, data: try RedisTestEnvironment.rawData(Self.image), forKey: "k") }
        #expect(ContinuousClock.now - storeStart < RedisTestEnvironment.timeoutBound)

        #expect(cache.statistics.failedQueries == 1)
        #expect(cache.statistics.droppedStores == 1)
        #expect(client.statistics.timeouts == 2)
        let dropped = try #require(log.all.first { $0.message.contains("dropped the store of key \"k\"") })
        #expect(dropped.level == .error)
        #expect((dropped.error?.underlyingError as? RedisClientError)?.kind == .timedOut)
        #expect(dropped.message.contains("127.0.0.1:\(server.port)"))
    }

    @Test func anUnreachableServerIsAMissAndTheBackoffKeepsItCheap() async throws {
        let port = try LoopbackSockets.freePort()
        let log = LogRecorder()
        let client = RedisClient(configuration: .init(port: port, initialReconnectDelay: 30))
        let cache = RedisTestEnvironment.makeCache(port: port, client: client, log: log)
        #expect(await cache.queryImage(forKey: "k") == nil)
        for index in 0..<3 {
            await #expect(throws: WebImageError.self) { try await cache.store(nil, data: Data("x".utf8), forKey: "k\(index)") }
        }
        #expect(cache.statistics.failedQueries == 1)
        #expect(cache.statistics.droppedStores == 3)
        #expect(log.count(of: .error, containing: "dropped the store") == 3)
        // One connection attempt; the rest were refused by the backoff without a connect.
        #expect(client.statistics.connectFailures == 1)
        #expect(client.statistics.rejectedWhileBackingOff == 3)
    }

    @Test(.enabled(if: RedisTestEnvironment.hasRedis, "redis-server is not installed (apt-get install redis-server): layered failure test skipped"))
    func theLayeredCacheServesFromMemoryWhileRedisIsDown() async throws {
        let server = try await RedisServerProcess.start()
        defer { server.stop() }
        let memory = MemoryCache()
        let redis = RedisTestEnvironment.makeCache(port: server.port)
        let layered = redis.makeLayeredCache(memoryCache: memory)
        await server.kill()
        let data = try RedisTestEnvironment.rawData(Self.image)
        await #expect(throws: WebImageError.self) { try await layered.store(Self.image, data: data, forKey: "k") }
        #expect(memory.contains("k"))
        #expect(await layered.queryImage(forKey: "k")?.cacheType == .memory)
        #expect(redis.statistics.droppedStores == 1)
    }

    /// Waits until the client's reconnect backoff has passed (a known instant, not a guess).
    func waitOutTheBackoff(of client: RedisClient) async throws {
        if let retryAt = client.reconnectAllowedAt {
            try await Task.sleep(until: retryAt + .milliseconds(1), clock: .continuous)
        }
    }
}
