import Foundation
import Testing
import RedisCache
import RedisServerHarness
import SwiftWebImage
import WebImageTestSupport

/// What RedisImageCache stores and returns, on a real Redis: metadata and extended data,
/// decoding through the request's options and coder, encoding images without data, TTL, the
/// size limit, large values, concurrency, corrupt values, namespaces and clear.
@Suite(.whenThePoolResponds, .enabled(if: RedisTestEnvironment.hasRedis, "redis-server is not installed (apt-get install redis-server): Redis cache tests skipped"))
struct RedisImageCacheTests {
    let server: RedisServerProcess

    init() async throws {
        server = try await RedisServerProcess.start()
    }

    /// A raw client on the test server, for looking behind the cache's back.
    var raw: RedisClient { RedisClient(configuration: RedisTestEnvironment.clientConfiguration(port: server.port)) }

    @Test func aHitRestoresTheImageItsDataAndItsExtendedData() async throws {
        defer { server.stop() }
        let cache = RedisTestEnvironment.makeCache(port: server.port, maxAge: 3600)
        var image = TestImages.still(width: 20, height: 10, seed: 3)
        image.extendedData = Data("extended \u{0}bytes".utf8)
        let data = try RedisTestEnvironment.rawData(image)
        try await cache.store(image, data: data, forKey: "https://example.com/a.wiraw")

        let hit = try #require(await cache.queryImage(forKey: "https://example.com/a.wiraw"))
        #expect(hit.cacheType == .disk)
        #expect(hit.data == data)
        #expect(hit.image?.pixelSize == PixelSize(width: 20, height: 10))
        #expect(hit.image?.bitmap == image.bitmap)
        #expect(hit.image?.extendedData == image.extendedData)

        let info = try #require(await cache.entryInfo(forKey: "https://example.com/a.wiraw"))
        #expect(info.format == .rawBitmap)
        #expect(info.pixelSize == PixelSize(width: 20, height: 10))
        #expect(info.extendedData == image.extendedData)
        #expect(info.dataSize == data.count)
        #expect(await cache.containsImage(forKey: "https://example.com/a.wiraw", cacheType: .all) == .disk)
        #expect(cache.statistics.hits == 1 && cache.statistics.stores == 1)
        // Stored under the namespaced key, visible to any client.
        #expect(try await raw.send(.exists([cache.redisKey(forKey: "https://example.com/a.wiraw")])) == .integer(1))
    }

    @Test func avoidDecodeImageReturnsTheDataOnly() async throws {
        defer { server.stop() }
        let coder = MockImageCoder(name: "counting", magic: Array("WIRAW1".utf8), format: .rawBitmap)
        let cache = RedisTestEnvironment.makeCache(port: server.port)
        cache.coder = coder
        let data = try RedisTestEnvironment.rawData(TestImages.still())
        try await cache.store(nil, data: data, forKey: "k")
        let hit = try #require(await cache.queryImage(forKey: "k", options: [.avoidDecodeImage], context: WebImageContext(), cacheType: .all))
        #expect(hit.image == nil)
        #expect(hit.data == data)
        #expect(coder.decodeCount == 0)
    }

    @Test func aCancelledTaskGetsAMissWithoutARoundTrip() async throws {
        defer { server.stop() }
        let cache = RedisTestEnvironment.makeCache(port: server.port)
        try await cache.store(nil, data: try RedisTestEnvironment.rawData(TestImages.still()), forKey: "k")
        let before = cache.client.statistics.roundTrips
        let result = await Task { () -> ImageCacheResult? in
            withUnsafeCurrentTask { $0?.cancel() }
            return await cache.queryImage(forKey: "k")
        }.value
        #expect(result == nil)
        let error = await Task { () -> WebImageError? in
            withUnsafeCurrentTask { $0?.cancel() }
            do {
                _ = try await cache.client.send(.ping)
                return nil
            } catch {
                return error as? WebImageError
            }
        }.value
        #expect(error?.code == .cancelled)
        #expect(cache.client.statistics.roundTrips == before)
        #expect(cache.statistics.failedQueries == 0)
    }

    @Test func redisIsTheDiskTier() async throws {
        defer { server.stop() }
        let cache = RedisTestEnvironment.makeCache(port: server.port)
        let image = TestImages.still()
        let data = try RedisTestEnvironment.rawData(image)
        try await cache.store(image, data: data, forKey: "memory-only", options: [], context: WebImageContext(), cacheType: .memory)
        #expect(await cache.containsImage(forKey: "memory-only", cacheType: .all) == .none)
        try await cache.store(image, data: data, forKey: "k", options: [], context: WebImageContext(), cacheType: .disk)
        #expect(await cache.queryImage(forKey: "k", cacheType: .memory) == nil)
        #expect(await cache.containsImage(forKey: "k", cacheType: .memory) == .none)
        #expect(await cache.queryImage(forKey: "k", cacheType: .disk) != nil)
        await cache.removeImage(forKey: "k", cacheType: .memory)
        await cache.clear(cacheType: .memory)
        #expect(await cache.containsImage(forKey: "k", cacheType: .disk) == .disk)
        await cache.removeImage(forKey: "k", cacheType: .disk)
        #expect(await cache.containsImage(forKey: "k", cacheType: .disk) == .none)
    }

    @Test func queriesDecodeWithTheRequestsOptions() async throws {
        defer { server.stop() }
        let cache = RedisTestEnvironment.makeCache(port: server.port)
        let data = try RedisTestEnvironment.rawData(TestImages.still(width: 40, height: 20))
        try await cache.store(nil, data: data, forKey: "photo@2x.wiraw")
        let thumbnail = WebImageContext { $0.imageThumbnailPixelSize = PixelSize(width: 10, height: 10) }
        let small = try #require(await cache.queryImage(forKey: "photo@2x.wiraw", options: [], context: thumbnail, cacheType: .all))
        #expect(small.image?.pixelSize == PixelSize(width: 10, height: 5))
        #expect(small.image?.scale == 2)  // from the key
        let animated = try RedisTestEnvironment.rawData(TestImages.animated(frames: 3))
        try await cache.store(nil, data: animated, forKey: "anim")
        let first = try #require(await cache.queryImage(forKey: "anim", options: [.decodeFirstFrameOnly], context: WebImageContext(), cacheType: .all))
        #expect(first.image?.frameCount == 1)
        #expect(try #require(await cache.queryImage(forKey: "anim")).image?.frameCount == 3)
    }

    /// A Redis hit is shaped like a disk hit (the shared decode stage): an animation whose
    /// frames are held the other way than `matchAnimatedImageClass` asks is a miss, and the
    /// entry stays.
    @Test func hitsAreShapedLikeDiskHits() async throws {
        defer { server.stop() }
        let cache = RedisTestEnvironment.makeCache(port: server.port)
        try await cache.store(nil, data: try RedisTestEnvironment.rawData(TestImages.animated(frames: 3)), forKey: "anim")
        let lazy = WebImageContext { $0.imageCoder = LazyFramesCoder() }
        let mismatch = await cache.queryImage(forKey: "anim", options: [.matchAnimatedImageClass, .preloadAllFrames], context: lazy, cacheType: .all)
        #expect(mismatch == nil)
        #expect(await cache.containsImage(forKey: "anim", cacheType: .disk) == .disk, "a mismatch keeps the entry")
        let match = try #require(await cache.queryImage(forKey: "anim", options: [.matchAnimatedImageClass], context: lazy, cacheType: .all))
        #expect(match.image?.frameCount == 3)
    }

    @Test func theRequestsCoderWins() async throws {
        defer { server.stop() }
        let cache = RedisTestEnvironment.makeCache(port: server.port)
        try await cache.store(nil, data: try RedisTestEnvironment.rawData(TestImages.still()), forKey: "k")
        let mock = MockImageCoder(name: "request-coder", magic: Array("WIRAW1".utf8), format: .rawBitmap)
        let hit = try #require(await cache.queryImage(forKey: "k", options: [], context: WebImageContext { $0.imageCoder = mock }, cacheType: .all))
        #expect(hit.image.flatMap(MockImageCoder.decoderName(of:)) == "request-coder")
        #expect(mock.decodeCount == 1)
    }

    @Test(arguments: [false, true])
    func imagesStoredWithoutDataAreEncoded(alpha: Bool) async throws {
        defer { server.stop() }
        let cache = RedisTestEnvironment.makeCache(port: server.port)
        cache.coder = CodersManager.shared
        let image = WebImage(bitmap: TestImages.gradient(width: 12, height: 8, alpha: alpha))
        try await cache.store(image, data: nil, forKey: "encoded")
        let info = try #require(await cache.entryInfo(forKey: "encoded"))
        #expect(info.format == (alpha ? .png : .jpeg))
        #expect(info.pixelSize == PixelSize(width: 12, height: 8))
        let hit = try #require(await cache.queryImage(forKey: "encoded"))
        #expect(hit.image?.pixelSize == PixelSize(width: 12, height: 8))
        #expect(hit.image?.format == (alpha ? .png : .jpeg))
    }

    @Test func anImageNoCoderCanEncodeIsNotStored() async throws {
        defer { server.stop() }
        let cache = RedisTestEnvironment.makeCache(port: server.port)
        cache.coder = CodersManager()
        let error = await #expect(throws: WebImageError.self) { try await cache.store(TestImages.still(), data: nil, forKey: "k") }
        #expect(error?.code == .cacheFailure)
        #expect(error?.message.contains("could not be encoded") == true)
        #expect(cache.statistics.skippedStores == 1)
        #expect(await cache.containsImage(forKey: "k", cacheType: .all) == .none)
        let nothing = await #expect(throws: WebImageError.self) { try await cache.store(nil, data: nil, forKey: "k") }
        #expect(nothing?.code == .invalidArgument)
    }

    @Test func valuesOverTheSizeLimitAreNotStored() async throws {
        defer { server.stop() }
        let log = LogRecorder()
        let cache = RedisTestEnvironment.makeCache(port: server.port, maxValueSize: 2000, log: log)
        let small = try RedisTestEnvironment.rawData(TestImages.still(width: 4, height: 4))
        let large = try RedisTestEnvironment.rawData(TestImages.still(width: 30, height: 30))
        try await cache.store(nil, data: small, forKey: "k")
        let error = await #expect(throws: WebImageError.self) { try await cache.store(nil, data: large, forKey: "k") }
        #expect(error?.code == .cacheFailure)
        #expect(error?.message.contains("over the limit of 2000 bytes") == true)
        #expect(cache.statistics.skippedStores == 1)
        // The earlier entry stays; nothing was sent; nothing is logged (Redis did not fail).
        #expect(try #require(await cache.queryImage(forKey: "k")).data == small)
        #expect(log.all.isEmpty)
    }

    @Test func theTimeToLiveFollowsMaxAge() async throws {
        defer { server.stop() }
        let data = try RedisTestEnvironment.rawData(TestImages.still())
        let hour = RedisTestEnvironment.makeCache(port: server.port, maxAge: 3600)
        try await hour.store(nil, data: data, forKey: "k")
        let ttl = try #require(await hour.entryInfo(forKey: "k")?.timeToLive)
        // Within ten minutes of the hour: this task may wait a minute or more for a pool thread
        // in a full parallel run between the store and the read (issue 38).
        #expect(ttl > 3000 && ttl <= 3600)

        for maxAge in [-1, TimeInterval.infinity] {
            let forever = RedisTestEnvironment.makeCache(port: server.port, maxAge: maxAge)
            try await forever.store(nil, data: data, forKey: "k")
            let info = try #require(await forever.entryInfo(forKey: "k"))
            #expect(info.timeToLive == nil, "maxAge \(maxAge)")
        }

        let never = RedisTestEnvironment.makeCache(port: server.port, maxAge: 0)
        try await never.store(nil, data: data, forKey: "k")
        #expect(await never.containsImage(forKey: "k", cacheType: .all) == .none)
        #expect(never.statistics.stores == 0)
    }

    @Test func entriesExpireAfterMaxAge() async throws {
        defer { server.stop() }
        let cache = RedisTestEnvironment.makeCache(port: server.port, maxAge: 0.25)
        try await cache.store(nil, data: try RedisTestEnvironment.rawData(TestImages.still()), forKey: "short-lived")
        // At most 250 ms left, or already gone (-2) on a slow machine; never "no TTL" (-1).
        let ttl = try #require(try await raw.send(.pttl(cache.redisKey(forKey: "short-lived"))).integer)
        #expect(ttl <= 250 && ttl != -1)
        // Waiting out the TTL is the behaviour under test; Redis expires by its own clock.
        try await Task.sleep(for: .milliseconds(400))
        #expect(await cache.queryImage(forKey: "short-lived") == nil)
        #expect(try await raw.send(.exists([cache.redisKey(forKey: "short-lived")])) == .integer(0))
    }

    @Test func aMegabyteValueRoundTrips() async throws {
        defer { server.stop() }
        let cache = RedisTestEnvironment.makeCache(port: server.port)
        let image = TestImages.still(width: 700, height: 500, seed: 77)
        let data = try RedisTestEnvironment.rawData(image)
        #expect(data.count > 1_000_000)
        try await cache.store(image, data: data, forKey: "big")
        let hit = try #require(await cache.queryImage(forKey: "big"))
        #expect(hit.data == data)
        #expect(hit.image?.bitmap == image.bitmap)
    }

    @Test func sixteenConcurrentTasks() async throws {
        defer { server.stop() }
        let cache = RedisTestEnvironment.makeCache(port: server.port)
        let shared = TestImages.still(width: 9, height: 9, seed: 1)
        try await cache.store(shared, data: try RedisTestEnvironment.rawData(shared), forKey: "shared")
        let outcomes = try await withThrowingTaskGroup(of: Bool.self) { group in
            for task in 0..<16 {
                group.addTask {
                    let image = TestImages.still(width: 10 + task, height: 5, seed: UInt8(task))
                    let key = "task-\(task)"
                    var ok = true
                    for _ in 0..<5 {
                        try await cache.store(image, data: try RedisTestEnvironment.rawData(image), forKey: key)
                        let own = await cache.queryImage(forKey: key)
                        let other = await cache.queryImage(forKey: "shared")
                        ok = ok && own?.image?.bitmap == image.bitmap && other?.image?.pixelSize == shared.pixelSize
                    }
                    return ok
                }
            }
            return try await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(outcomes == Array(repeating: true, count: 16))
        #expect(cache.statistics.hits == 160)
        #expect(cache.statistics.failedQueries == 0 && cache.statistics.droppedStores == 0)
        #expect(cache.client.statistics.connectionsOpened <= cache.client.configuration.maxConnections)
    }

    @Test func aCorruptValueIsAMissAndIsRemoved() async throws {
        defer { server.stop() }
        let log = LogRecorder()
        let cache = RedisTestEnvironment.makeCache(port: server.port, log: log)
        let key = cache.redisKey(forKey: "k")
        _ = try await raw.send(.set(key, Data("not an entry".utf8)))
        #expect(await cache.queryImage(forKey: "k") == nil)
        #expect(cache.statistics.corruptValues == 1)
        #expect(try await raw.send(.exists([key])) == .integer(0))
        #expect(log.count(of: .warning, containing: "is not an entry of this cache") == 1)
    }

    @Test func dataTheCoderCallsBadIsRemoved() async throws {
        defer { server.stop() }
        let cache = RedisTestEnvironment.makeCache(port: server.port)
        let truncated = try RedisTestEnvironment.rawData(TestImages.still(width: 20, height: 20)).prefix(100)
        try await cache.store(nil, data: Data(truncated), forKey: "k")
        #expect(await cache.queryImage(forKey: "k") == nil)
        #expect(cache.statistics.corruptValues == 1)
        #expect(await cache.containsImage(forKey: "k", cacheType: .all) == .none)
    }

    @Test func dataOfAKnownFormatNoCoderDecodesStays() async throws {
        defer { server.stop() }
        let cache = RedisTestEnvironment.makeCache(port: server.port)
        cache.coder = RawBitmapCoder()
        let png = try PNGCoder().encode(TestImages.still(), as: .png)
        try await cache.store(nil, data: png, forKey: "k")
        #expect(await cache.queryImage(forKey: "k") == nil)
        #expect(cache.statistics.corruptValues == 0)
        #expect(await cache.containsImage(forKey: "k", cacheType: .all) == .disk)
        cache.coder = CodersManager.shared  // a coder registered later decodes it
        #expect(await cache.queryImage(forKey: "k")?.image != nil)
    }

    @Test func namespacesKeepTheirEntriesApart() async throws {
        defer { server.stop() }
        let client = raw
        let a = RedisTestEnvironment.makeCache(port: server.port, namespace: "a", client: client)
        let b = RedisTestEnvironment.makeCache(port: server.port, namespace: "a:b", client: client)
        let first = TestImages.still(width: 3, height: 3)
        let second = TestImages.still(width: 5, height: 5)
        try await a.store(first, data: try RedisTestEnvironment.rawData(first), forKey: "b:c")
        try await b.store(second, data: try RedisTestEnvironment.rawData(second), forKey: "c")
        #expect(await a.queryImage(forKey: "b:c")?.image?.pixelSize == first.pixelSize)
        #expect(await b.queryImage(forKey: "c")?.image?.pixelSize == second.pixelSize)
        #expect(await a.queryImage(forKey: "c") == nil)
        await a.removeImage(forKey: "b:c", cacheType: .all)
        #expect(await b.queryImage(forKey: "c") != nil)
    }

    @Test func clearRemovesOnlyThisNamespace() async throws {
        defer { server.stop() }
        let client = raw
        let images = RedisTestEnvironment.makeCache(port: server.port, namespace: "img", client: client)
        let images2 = RedisTestEnvironment.makeCache(port: server.port, namespace: "img2", client: client)
        let globby = RedisTestEnvironment.makeCache(port: server.port, namespace: "a*", client: client)
        let plain = RedisTestEnvironment.makeCache(port: server.port, namespace: "ab", client: client)
        let data = try RedisTestEnvironment.rawData(TestImages.still(width: 2, height: 2))
        // Enough keys that SCAN needs several steps.
        _ = try await client.pipeline((0..<2500).map { RedisCommand.set(images.redisKey(forKey: "bulk-\($0)"), Data("x".utf8)) })
        try await images.store(nil, data: data, forKey: "k")
        try await images2.store(nil, data: data, forKey: "k")
        try await globby.store(nil, data: data, forKey: "k")
        try await plain.store(nil, data: data, forKey: "k")
        let foreign = [Data("foreign:key".utf8), Data("swiftwebimage:other".utf8), Data("img:k".utf8)]
        _ = try await client.pipeline(foreign.map { RedisCommand.set($0, Data("keep me".utf8)) })

        await images.clear(cacheType: .all)
        #expect(await images.queryImage(forKey: "k") == nil)
        #expect(try await client.send(.exists((0..<2500).map { images.redisKey(forKey: "bulk-\($0)") })) == .integer(0))
        #expect(await images2.queryImage(forKey: "k") != nil)
        #expect(await globby.queryImage(forKey: "k") != nil)
        #expect(try await client.send(.exists(foreign)) == .integer(3))

        // "a*" is a namespace name, not a pattern: "ab" stays.
        await globby.clear(cacheType: .all)
        #expect(await globby.queryImage(forKey: "k") == nil)
        #expect(await plain.queryImage(forKey: "k") != nil)
        #expect(try await client.send(.exists(foreign)) == .integer(3))
        let size = try await client.send(RedisCommand("DBSIZE")).integer
        #expect(size == 5)  // img2, ab, and the three foreign keys
    }

    @Test func theLayeredCachePromotesRedisHitsIntoMemory() async throws {
        defer { server.stop() }
        let namespace = RedisTestEnvironment.uniqueNamespace()
        let otherServer = RedisTestEnvironment.makeCache(port: server.port, namespace: namespace)
        let image = TestImages.still(width: 6, height: 4)
        try await otherServer.store(image, data: try RedisTestEnvironment.rawData(image), forKey: "k")

        let memory = MemoryCache()
        let redis = RedisTestEnvironment.makeCache(port: server.port, namespace: namespace)
        let layered = redis.makeLayeredCache(memoryCache: memory)
        #expect(await layered.queryImage(forKey: "k")?.cacheType == .disk)
        #expect(memory.contains("k"))
        #expect(await layered.queryImage(forKey: "k")?.cacheType == .memory)
        #expect(redis.statistics.hits == 1)

        // A request that keeps memory out of its stores is not promoted.
        let noMemory = WebImageContext { $0.storeCacheType = .disk }
        memory.removeAll()
        #expect(await layered.queryImage(forKey: "k", options: [], context: noMemory, cacheType: .all)?.cacheType == .disk)
        #expect(!memory.contains("k"))
    }

    @Test func theLayeredCacheStoresToBoth() async throws {
        defer { server.stop() }
        let memory = MemoryCache()
        let redis = RedisTestEnvironment.makeCache(port: server.port)
        let layered = redis.makeLayeredCache(memoryCache: memory)
        let image = TestImages.still()
        try await layered.store(image, data: try RedisTestEnvironment.rawData(image), forKey: "k")
        #expect(memory.contains("k"))
        #expect(await redis.containsImage(forKey: "k", cacheType: .all) == .disk)
        await layered.clear(cacheType: .all)
        #expect(!memory.contains("k"))
        #expect(await redis.containsImage(forKey: "k", cacheType: .all) == .none)
    }
}

/// Decodes raw-bitmap data with lazily held frames, whatever the options ask.
private struct LazyFramesCoder: ImageCoder {
    func canDecode(_ data: Data) -> Bool { RawBitmapCoder().canDecode(data) }

    func decode(_ data: Data, options: ImageDecodeOptions) throws -> WebImage {
        var lazy = options
        lazy.preloadAllFrames = false
        return try RawBitmapCoder().decode(data, options: lazy)
    }

    func canEncode(to format: ImageFormat) -> Bool { false }

    func encode(_ image: WebImage, as format: ImageFormat, options: ImageEncodeOptions) throws -> Data {
        throw WebImageError(.unsupportedFormat, "LazyFramesCoder only decodes")
    }
}
