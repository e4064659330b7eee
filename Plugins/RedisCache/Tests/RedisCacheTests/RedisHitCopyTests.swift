import Foundation
import Testing
import RedisCache
import RedisServerHarness
import SwiftWebImage
import WebImageTestSupport

/// Redis hits copied to the local disk tier (issue 39): what a server got from Redis is still
/// on its disk after Redis lost it.
@Suite(.whenThePoolResponds, .enabled(if: RedisTestEnvironment.hasRedis, "redis-server is not installed (apt-get install redis-server): hit copy tests skipped"))
struct RedisHitCopyTests {
    @Test(arguments: [false, true])
    func aHitIsCopiedToTheFrontDisk(avoidingDecode: Bool) async throws {
        let server = try await RedisServerProcess.start()
        defer { server.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("redis-hit-copy-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let front = WebImageCache(namespace: "front", directory: directory, coder: RedisTestEnvironment.testCoders)
        let redis = RedisTestEnvironment.makeCache(port: server.port)
        let layered = redis.makeLayeredCache(over: front, promotingInto: front.memoryCache, copyingHitsToDisk: true)
        #expect(redis.hitCopyCache != nil)
        let image = TestImages.still(width: 12, height: 8)
        let data = try RedisTestEnvironment.rawData(image)
        try await redis.store(image, data: data, forKey: "k")
        #expect(front.diskCache?.data(forKey: "k") == nil)

        let options: WebImageOptions = avoidingDecode ? .avoidDecodeImage : []
        let hit = await layered.queryImage(forKey: "k", options: options, context: WebImageContext(), cacheType: .all)
        #expect(hit?.cacheType == .disk)
        #expect(front.diskCache?.data(forKey: "k") == data, "the hit's data is on the local disk")

        // Redis loses it; the local tier answers.
        await redis.removeImage(forKey: "k", cacheType: .disk)
        front.memoryCache.removeAll()
        let local = await layered.queryImage(forKey: "k", options: [], context: WebImageContext(), cacheType: .all)
        #expect(local?.image?.pixelSize == image.pixelSize)
    }

    @Test func noCopyWithoutTheOptionOrWhenTheRequestLeavesDiskOut() async throws {
        let server = try await RedisServerProcess.start()
        defer { server.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("redis-hit-copy-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let image = TestImages.still(width: 12, height: 8)
        let data = try RedisTestEnvironment.rawData(image)

        let plainFront = WebImageCache(namespace: "plain", directory: directory, coder: RedisTestEnvironment.testCoders)
        let plain = RedisTestEnvironment.makeCache(port: server.port)
        let plainLayered = plain.makeLayeredCache(over: plainFront, promotingInto: nil)
        try await plain.store(image, data: data, forKey: "k")
        _ = await plainLayered.queryImage(forKey: "k", options: [], context: WebImageContext(), cacheType: .all)
        #expect(plainFront.diskCache?.data(forKey: "k") == nil)

        let front = WebImageCache(namespace: "memory-only", directory: directory, coder: RedisTestEnvironment.testCoders)
        let redis = RedisTestEnvironment.makeCache(port: server.port)
        let layered = redis.makeLayeredCache(over: front, promotingInto: nil, copyingHitsToDisk: true)
        try await redis.store(image, data: data, forKey: "k")
        _ = await layered.queryImage(forKey: "k", options: [], context: WebImageContext { $0.storeCacheType = .memory }, cacheType: .all)
        #expect(front.diskCache?.data(forKey: "k") == nil)
    }
}
