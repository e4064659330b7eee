import Foundation
import SQLiteCache
import SwiftWebImage
import Testing
import WebImageTestSupport

/// `SQLiteImageCache` as an image cache: tiers, query options, decoding through the given coder
/// (or the request's), extended data, encoding of images stored without data, bad data.
@Suite struct ImageCacheTests {
    let root = TemporaryDirectory()
    let image = TestImages.still(width: 9, height: 7, seed: 3)
    let data: Data

    init() throws {
        RawBitmapCoder.registerFormat()
        data = try RawBitmapCoder().encode(image, as: .rawBitmap)
    }

    func makeCache(_ config: SQLiteImageCache.Config = SQLiteImageCache.Config(), coder: any ImageCoder = RawBitmapCoder()) -> SQLiteImageCache {
        SQLiteImageCache(directory: root.appending("cache"), config: config, coder: coder)
    }

    /// A stored image is a memory hit; SQLite alone gives it decoded, with its extended data,
    /// and a second cache on the same directory (the next launch) finds it too.
    @Test func tiersAndExtendedData() async throws {
        let cache = makeCache()
        var stored = image
        stored.extendedData = Data("extended".utf8)
        try await cache.store(stored, data: data, forKey: "k")
        let memory = try #require(await cache.queryImage(forKey: "k"))
        #expect(memory.cacheType == .memory && memory.data == nil)
        let disk = try #require(await cache.queryImage(forKey: "k", cacheType: .disk))
        #expect(disk.cacheType == .disk)
        #expect(disk.data == data)
        #expect(disk.image?.bitmap == image.bitmap)
        #expect(disk.image?.extendedData == Data("extended".utf8))
        #expect(await cache.containsImage(forKey: "k", cacheType: .all) == .memory, "memory first, as SDWebImage")

        let relaunched = makeCache()
        #expect(await relaunched.containsImage(forKey: "k", cacheType: .all) == .disk)
        let hit = try #require(await relaunched.queryImage(forKey: "k"))
        #expect(hit.cacheType == .disk && hit.image?.extendedData == Data("extended".utf8))
        #expect(relaunched.imageFromMemoryCache(forKey: "k") != nil, "a disk hit is promoted to memory")
        #expect(await relaunched.queryImage(forKey: "k")?.cacheType == .memory)
    }

    /// `queryMemoryData` adds the data to a memory hit (also synchronously); `avoidDecodeImage`
    /// gives the data of a disk hit undecoded; `queryDiskDataSync` reads on the calling task.
    /// The completion-handler store writes memory before it returns, SQLite by the completion
    /// (SDWebImage's `storeImage:...completion:`).
    @Test func completionStoreWritesMemoryBeforeItReturns() async throws {
        let cache = makeCache()
        let completions = AsyncStream<(any Error)?>.makeStream()
        cache.store(image, data: data, forKey: "k") { completions.continuation.yield($0) }
        #expect(cache.imageFromMemoryCache(forKey: "k") != nil)
        var iterator = completions.stream.makeAsyncIterator()
        let error = await iterator.next() ?? nil
        #expect(error == nil)
        #expect(await cache.queryImage(forKey: "k", cacheType: .disk)?.data == data)
    }

    @Test(arguments: [WebImageOptions.queryMemoryData, [.queryMemoryData, .queryMemoryDataSync]])
    func queryMemoryDataAddsTheData(_ options: WebImageOptions) async throws {
        let cache = makeCache()
        try await cache.store(image, data: data, forKey: "k")
        let hit = try #require(await cache.queryImage(forKey: "k", options: options, context: WebImageContext(), cacheType: .all))
        #expect(hit.cacheType == .memory && hit.data == data && hit.image != nil)
    }

    @Test(arguments: [WebImageOptions.avoidDecodeImage, [.avoidDecodeImage, .queryDiskDataSync]])
    func avoidDecodeImageGivesData(_ options: WebImageOptions) async throws {
        let cache = makeCache()
        try await cache.store(nil, data: data, forKey: "k", cacheType: .disk)
        let hit = try #require(await cache.queryImage(forKey: "k", options: options, context: WebImageContext(), cacheType: .all))
        #expect(hit.image == nil && hit.data == data && hit.cacheType == .disk)
        #expect(cache.imageFromMemoryCache(forKey: "k") == nil)
    }

    /// Memory off: stores and hits skip it. A context whose store type leaves memory out does
    /// not promote either.
    @Test func memoryTierCanBeLeftOut() async throws {
        let cache = makeCache(SQLiteImageCache.Config(shouldCacheImagesInMemory: false))
        try await cache.store(image, data: data, forKey: "k")
        #expect(cache.imageFromMemoryCache(forKey: "k") == nil)
        #expect(await cache.queryImage(forKey: "k")?.cacheType == .disk)
        #expect(await cache.queryImage(forKey: "k")?.cacheType == .disk)

        let other = SQLiteImageCache(directory: root.appending("other"), coder: RawBitmapCoder())
        try await other.store(nil, data: data, forKey: "k")
        let context = WebImageContext { $0.storeCacheType = .disk }
        #expect(await other.queryImage(forKey: "k", options: [], context: context, cacheType: .all)?.cacheType == .disk)
        #expect(other.imageFromMemoryCache(forKey: "k") == nil)
    }

    /// The request's coder wins over the cache's, and decoding gets the request's options
    /// (a thumbnail size here).
    @Test func requestCoderAndDecodeOptions() async throws {
        let cache = makeCache(SQLiteImageCache.Config(shouldCacheImagesInMemory: false), coder: CodersManager())
        try await cache.store(nil, data: data, forKey: "k")
        #expect(await cache.queryImage(forKey: "k") == nil, "the cache's own coder cannot decode it")
        let context = WebImageContext {
            $0.imageCoder = RawBitmapCoder()
            $0.imageThumbnailPixelSize = PixelSize(width: 3, height: 3)
        }
        let hit = try #require(await cache.queryImage(forKey: "k", options: [], context: context, cacheType: .all))
        #expect(hit.image?.pixelSize.width == 3)
        #expect(cache.diskImageData(forKey: "k") == data, "a known format no coder decodes stays")
    }

    /// Data no format recognises, or that its coder calls corrupt, is a miss and is removed.
    @Test func badDataIsAMissAndIsRemoved() async throws {
        let cache = makeCache()
        try await cache.store(nil, data: Data("not an image".utf8), forKey: "garbage")
        try await cache.store(nil, data: data.prefix(20), forKey: "truncated")
        #expect(await cache.queryImage(forKey: "garbage") == nil)
        #expect(await cache.queryImage(forKey: "truncated") == nil)
        #expect(await cache.containsImage(forKey: "garbage", cacheType: .disk) == .none)
        #expect(await cache.containsImage(forKey: "truncated", cacheType: .disk) == .none)
    }

    /// An image stored without data is encoded by the coder (PNG or JPEG with the built-in
    /// coders, the default); when nothing can encode it, it stays in memory and the error says so.
    @Test func imageWithoutDataIsEncoded() async throws {
        let cache = SQLiteImageCache(directory: root.appending("builtin"))
        try await cache.store(image, data: nil, forKey: "k")
        let stored = try #require(cache.diskImageData(forKey: "k"))
        #expect(ImageFormat.detect(stored) == .jpeg)
        let relaunched = SQLiteImageCache(directory: root.appending("builtin"))
        #expect(await relaunched.queryImage(forKey: "k")?.image?.pixelSize == image.pixelSize)

        let raw = makeCache()
        let error = try await #require(throws: WebImageError.self) { try await raw.store(image, data: nil, forKey: "k") }
        #expect(error.code == .cacheFailure)
        #expect(error.message.contains("stored in memory only"), "\(error.message)")
        #expect(raw.imageFromMemoryCache(forKey: "k") != nil)
    }

    /// Data stored for memory alone is decoded; undecodable data for memory alone is an error.
    @Test func dataForMemoryAloneIsDecoded() async throws {
        let cache = makeCache()
        try await cache.store(nil, data: data, forKey: "k", cacheType: .memory)
        #expect(cache.imageFromMemoryCache(forKey: "k")?.pixelSize == image.pixelSize)
        #expect(cache.diskImageData(forKey: "k") == nil)
        let error = try await #require(throws: WebImageError.self) {
            try await cache.store(nil, data: Data("junk".utf8), forKey: "j", cacheType: .memory)
        }
        #expect(error.code == .badImageData)
        let nothing = try await #require(throws: WebImageError.self) { try await cache.store(nil, data: nil, forKey: "n") }
        #expect(nothing.code == .invalidArgument)
    }

    /// Removing and clearing one tier leaves the other.
    @Test func tierByTierRemovalAndClearing() async throws {
        let cache = makeCache()
        try await cache.store(image, data: data, forKey: "k")
        await cache.removeImage(forKey: "k", cacheType: .memory)
        #expect(await cache.containsImage(forKey: "k", cacheType: .all) == .disk)
        try await cache.store(image, data: data, forKey: "k")
        await cache.clear(cacheType: .disk)
        #expect(await cache.containsImage(forKey: "k", cacheType: .all) == .memory)
        await cache.clear(cacheType: .all)
        #expect(await cache.containsImage(forKey: "k", cacheType: .all) == .none)
        #expect(await cache.queryImage(forKey: "k", cacheType: ImageCacheType.none) == nil)
    }

    /// `decodeFirstFrameOnly` makes an animated hit still.
    @Test func firstFrameOnly() async throws {
        let animated = TestImages.animated(frames: 3)
        let cache = makeCache()
        try await cache.store(animated, data: try RawBitmapCoder().encode(animated, as: .rawBitmap), forKey: "a")
        let memory = try #require(await cache.queryImage(forKey: "a", options: .decodeFirstFrameOnly, context: WebImageContext(), cacheType: .all))
        #expect(memory.image?.frameCount == 1)
        let disk = try #require(await cache.queryImage(forKey: "a", options: .decodeFirstFrameOnly, context: WebImageContext(), cacheType: .disk))
        #expect(disk.image?.frameCount == 1)
        #expect(await cache.queryImage(forKey: "a", cacheType: .disk)?.image?.frameCount == 3)
    }

    /// The config reaches both tiers.
    @Test func configReachesBothTiers() {
        let cache = makeCache()
        cache.config = SQLiteImageCache.Config(memoryCostLimit: 1_234, memoryCountLimit: 5, disk: SQLiteDiskCache.Config(sizeLimit: 999, countLimit: 7))
        #expect(cache.memoryCache.costLimit == 1_234 && cache.memoryCache.countLimit == 5)
        #expect(cache.diskCache.config.sizeLimit == 999 && cache.diskCache.config.countLimit == 7)
    }

    /// The default directory sits beside the built-in caches' directories, never inside one.
    @Test func defaultDirectory() {
        let directory = SQLiteImageCache.defaultDirectory(namespace: "images", environment: ["XDG_CACHE_HOME": "/xdg"])
        #expect(directory.path == "/xdg/swiftwebimage-sqlite/images")
        let hostile = SQLiteImageCache.defaultDirectory(namespace: "../../etc", environment: ["HOME": "/home/u"])
        #expect(hostile.path.hasPrefix("/home/u/.cache/swiftwebimage-sqlite/") && !hostile.path.contains("/../"))
    }
}
