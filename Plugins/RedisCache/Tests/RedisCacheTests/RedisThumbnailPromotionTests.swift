import Foundation
import Testing
import RedisCache
import RedisServerHarness
import SwiftWebImage
import WebImageTestSupport

/// A Redis hit decoded smaller than its data (a thumbnail size or a scale-down budget in the
/// query) is not promoted into the memory cache under the queried key: the memory tier would
/// then answer a later plain query with the thumbnail.
@Suite(.whenThePoolResponds, .enabled(if: RedisTestEnvironment.hasRedis, "redis-server is not installed (apt-get install redis-server): Redis promotion tests skipped"))
struct RedisThumbnailPromotionTests {
    let server: RedisServerProcess

    init() async throws {
        server = try await RedisServerProcess.start()
    }

    @Test(arguments: ["thumbnail", "scaleDown"])
    func aSmallerDecodeIsNotPromoted(_ shrink: String) async throws {
        defer { server.stop() }
        let memory = MemoryCache()
        let redis = RedisTestEnvironment.makeCache(port: server.port)
        let layered = redis.makeLayeredCache(memoryCache: memory)
        let image = TestImages.still(width: 12, height: 8)
        try await redis.store(image, data: try RedisTestEnvironment.rawData(image), forKey: "k")

        let options: WebImageOptions = shrink == "scaleDown" ? .scaleDownLargeImages : []
        let context = WebImageContext {
            if shrink == "scaleDown" {
                $0.imageScaleDownLimitBytes = 24 * 4
            } else {
                $0.imageThumbnailPixelSize = PixelSize(width: 3, height: 3)
            }
        }
        let small = try #require(await layered.queryImage(forKey: "k", options: options, context: context, cacheType: .all))
        #expect(small.cacheType == .disk)
        #expect((small.image?.pixelSize.width ?? 12) < 12)
        #expect(!memory.contains("k"), "the smaller image is not in memory under the full-size key")

        let plain = try #require(await layered.queryImage(forKey: "k"))
        #expect(plain.image?.pixelSize == PixelSize(width: 12, height: 8))
        #expect(memory.image(forKey: "k")?.pixelSize == PixelSize(width: 12, height: 8), "the full-size decode is promoted")
    }
}
