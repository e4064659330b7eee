import Foundation
import Testing
import RedisCache
import RedisServerHarness
import SwiftWebImage
import WebImageTestSupport

/// The Core cache contract, on a real Redis: the cache alone, and the recommended layered
/// setup (a MemoryCache in front, through a CachesManager).
@Suite(.whenThePoolResponds, .enabled(if: RedisTestEnvironment.hasRedis, "redis-server is not installed (apt-get install redis-server): Redis cache contract skipped"))
struct RedisImageCacheContractTests {
    @Test(arguments: ImageCacheContract.Check.allCases)
    func redisImageCache(_ check: ImageCacheContract.Check) async throws {
        let server = try await RedisServerProcess.start()
        defer { server.stop() }
        let log = LogRecorder()
        try await ImageCacheContract.verify(check, on: RedisTestEnvironment.makeCache(port: server.port, log: log))
        #expect(log.all.isEmpty, "\(log.all)")
    }

    @Test(arguments: ImageCacheContract.Check.allCases)
    func layeredBehindAMemoryCache(_ check: ImageCacheContract.Check) async throws {
        let server = try await RedisServerProcess.start()
        defer { server.stop() }
        let layered = RedisTestEnvironment.makeCache(port: server.port).makeLayeredCache(memoryCache: MemoryCache())
        try await ImageCacheContract.verify(check, on: layered)
    }
}

/// How the layered setup is built (no server needed).
@Suite struct LayeredCacheSetupTests {
    @Test func theLayeredCacheIsMemoryInFrontOfRedis() {
        let redis = RedisImageCache(configuration: .init(port: 1), coder: RawBitmapCoder())
        let memory = MemoryCache()
        let layered = redis.makeLayeredCache(memoryCache: memory)
        #expect(layered.caches.count == 2)
        #expect(layered.caches.first as AnyObject === redis)
        #expect(layered.caches.last as AnyObject === memory)  // the highest: asked first
        #expect(layered.queryPolicy == .serial)
        #expect(layered.storePolicy == .concurrent)
        #expect(layered.containsPolicy == .serial)
        #expect(layered.removePolicy == .concurrent)
        #expect(layered.clearPolicy == .concurrent)
        #expect(redis.promotionCache === memory)
    }
}
