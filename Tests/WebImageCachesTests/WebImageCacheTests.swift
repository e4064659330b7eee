import Foundation
import Testing
import WebImageTestSupport
import WebImageCaches
import WebImageCore

/// ``WebImageCache``: the memory + disk flow, every query option, encoding on store, corrupt
/// files, and a disk that cannot be written.
@Suite struct WebImageCacheTests {
    let root = TestDirectory()

    init() {
        RawBitmapCoder.registerFormat()
    }

    func makeCache(_ config: WebImageCache.Config = WebImageCache.Config(), coder: any ImageCoder = RawBitmapCoder()) -> WebImageCache {
        WebImageCache(namespace: "test", directory: root.url, config: config, coder: coder)
    }

    static let image = TestImages.still(width: 9, height: 7, seed: 11)
    static var data: Data { try! RawBitmapCoder().encode(image, as: .rawBitmap) }
    static let animated = TestImages.animated(frames: 3, width: 6, height: 4)
    static var animatedData: Data { try! RawBitmapCoder().encode(animated, as: .rawBitmap) }

    @Test func diskDirectoryIsDirectoryPlusNamespace() throws {
        let cache = makeCache()
        let diskCache = try #require(cache.diskStorage as? DiskCache)
        #expect(cache.diskCache === diskCache)
        #expect(diskCache.directory.path == root.url.appendingPathComponent("test").path)
        let path = try #require(cache.cachePath(forKey: "k"))
        #expect(path.deletingLastPathComponent().path == diskCache.directory.path)
    }

    @Test func memoryHitComesFirstAndCarriesNoData() async throws {
        let cache = makeCache()
        try await cache.store(Self.image, data: Self.data, forKey: "k")
        let hit = try #require(await cache.queryImage(forKey: "k"))
        #expect(hit.cacheType == .memory)
        #expect(hit.image?.pixelSize == Self.image.pixelSize)
        #expect(hit.data == nil)
        #expect(cache.diskImageData(forKey: "k") == Self.data)
        #expect(await cache.containsImage(forKey: "k", cacheType: .all) == .memory, "memory first, as SDWebImage")
    }

    /// `containsImage` answers from the memory tier alone when it holds the key (SDWebImage's
    /// rule: `.memory`, never `.all`), and asks the disk only after a memory miss.
    @Test func containsAnswersMemoryFirstWithoutTheDisk() async throws {
        let storage = InMemoryDiskStorage()
        let cache = WebImageCache(diskStorage: storage, coder: RawBitmapCoder())
        try await cache.store(Self.image, data: Self.data, forKey: "k")
        #expect(await cache.containsImage(forKey: "k", cacheType: .all) == .memory)
        #expect(await cache.containsImage(forKey: "k", cacheType: .memory) == .memory)
        #expect(!storage.calls.contains("contains k"), "a memory hit does not wait for the disk")
        #expect(await cache.containsImage(forKey: "k", cacheType: .disk) == .disk)
        await cache.removeImage(forKey: "k", cacheType: .memory)
        #expect(await cache.containsImage(forKey: "k", cacheType: .all) == .disk)
        #expect(await cache.containsImage(forKey: "k", cacheType: .memory) == .none)
        #expect(storage.calls.filter { $0 == "contains k" }.count == 2)
    }

    /// `imageFromDiskCache` decodes what the disk holds, even when memory holds another image
    /// under the key (SDWebImage's `imageFromDiskCacheForKey:`).
    @Test(arguments: [WebImageOptions(), .queryDiskDataSync])
    func imageFromDiskCacheDecodesTheDiskData(_ options: WebImageOptions) async throws {
        let cache = makeCache()
        let other = TestImages.still(width: 3, height: 2, seed: 99)
        try await cache.store(other, data: nil, forKey: "k", cacheType: .memory)
        try await cache.store(nil, data: Self.data, forKey: "k", cacheType: .disk)
        #expect(cache.imageFromMemoryCache(forKey: "k")?.bitmap == other.bitmap)
        let fromDisk = try #require(cache.imageFromDiskCache(forKey: "k", options: options))
        #expect(fromDisk.bitmap == Self.image.bitmap, "the disk tier's image, not the memory copy")
        #expect(cache.imageFromDiskCache(forKey: "absent", options: options) == nil)
    }

    @Test(arguments: [WebImageOptions.queryMemoryData, [.queryMemoryData, .queryMemoryDataSync]])
    func queryMemoryDataReadsTheDataFromDisk(_ options: WebImageOptions) async throws {
        let cache = makeCache()
        try await cache.store(Self.image, data: Self.data, forKey: "k")
        let hit = try #require(await cache.queryImage(forKey: "k", options: options, context: WebImageContext(), cacheType: .all))
        #expect(hit.cacheType == .memory)
        #expect(hit.data == Self.data)
        // With the memory tier alone there is no disk to read.
        let memoryOnly = try #require(await cache.queryImage(forKey: "k", options: options, context: WebImageContext(), cacheType: .memory))
        #expect(memoryOnly.data == nil)
    }

    @Test(arguments: [WebImageOptions(), .queryDiskDataSync])
    func diskHitIsDecodedAndPromoted(_ options: WebImageOptions) async throws {
        let cache = makeCache()
        var image = Self.image
        image.extendedData = Data("extended".utf8)
        try await cache.store(image, data: Self.data, forKey: "k", cacheType: .disk)
        #expect(cache.imageFromMemoryCache(forKey: "k") == nil)
        let hit = try #require(await cache.queryImage(forKey: "k", options: options, context: WebImageContext(), cacheType: .all))
        #expect(hit.cacheType == .disk)
        #expect(hit.data == Self.data)
        #expect(hit.image?.bitmap == Self.image.bitmap)
        #expect(hit.image?.extendedData == Data("extended".utf8), "extended data comes back from disk")
        #expect(cache.imageFromMemoryCache(forKey: "k") != nil, "a disk hit is promoted to memory")
        #expect(await cache.queryImage(forKey: "k")?.cacheType == .memory)
    }

    @Test func diskOnlyQuerySkipsMemory() async throws {
        let cache = makeCache()
        try await cache.store(Self.image, data: nil, forKey: "memory", cacheType: .memory)
        #expect(await cache.queryImage(forKey: "memory", options: [], context: WebImageContext(), cacheType: .disk) == nil)
        #expect(await cache.queryImage(forKey: "memory", options: [], context: WebImageContext(), cacheType: .none) == nil)
        #expect(await cache.containsImage(forKey: "memory", cacheType: .disk) == .none)
        #expect(await cache.containsImage(forKey: "memory", cacheType: .all) == .memory)
    }

    @Test func contextCoderOverridesTheCachesCoder() async throws {
        let cache = makeCache()
        let mock = MockImageCoder(name: "context-coder", magic: Array("MOCK".utf8), format: .png)
        try await cache.store(nil, data: Data("MOCK-data".utf8), forKey: "k")
        // The cache's own coder (RawBitmapCoder) cannot decode it; the request's coder can.
        var context = WebImageContext()
        context.imageCoder = mock
        let hit = try #require(await cache.queryImage(forKey: "k", options: [], context: context, cacheType: .all))
        #expect(MockImageCoder.decoderName(of: try #require(hit.image)) == "context-coder")
        #expect(mock.decodeCount == 1)
    }

    @Test func decodeOptionsComeFromTheContextAndKey() async throws {
        let cache = makeCache()
        try await cache.store(nil, data: Self.data, forKey: "icon@2x.wiraw")
        let scaled = try #require(await cache.queryImage(forKey: "icon@2x.wiraw")?.image)
        #expect(scaled.scale == 2, "the scale factor comes from @2x in the key")
        await cache.clear(cacheType: .memory)

        var context = WebImageContext()
        context.imageScaleFactor = 3
        context.imageThumbnailPixelSize = PixelSize(width: 3, height: 3)
        let thumbnail = try #require(await cache.queryImage(forKey: "icon@2x.wiraw", options: [], context: context, cacheType: .all)?.image)
        #expect(thumbnail.scale == 3)
        #expect(thumbnail.pixelSize.width <= 3 && thumbnail.pixelSize.height <= 3)
        #expect(thumbnail.metadata.contains(.thumbnail))
    }

    @Test func decodeFirstFrameOnly() async throws {
        let cache = makeCache()
        try await cache.store(nil, data: Self.animatedData, forKey: "anim")
        let still = try #require(await cache.queryImage(forKey: "anim", options: .decodeFirstFrameOnly, context: WebImageContext(), cacheType: .all)?.image)
        #expect(!still.isAnimated)
        await cache.clear(cacheType: .memory)
        let animated = try #require(await cache.queryImage(forKey: "anim")?.image)
        #expect(animated.frameCount == 3)
        #expect(await cache.queryImage(forKey: "anim")?.cacheType == .memory)
        let stillFromMemory = try #require(await cache.queryImage(forKey: "anim", options: .decodeFirstFrameOnly, context: WebImageContext(), cacheType: .all))
        #expect(stillFromMemory.cacheType == .memory)
        #expect(stillFromMemory.image?.isAnimated == false, "an animated memory hit is made still")
    }

    /// `matchAnimatedImageClass`: a memory hit whose frames are held the other way (lazy vs
    /// preloaded) is a miss, and the disk entry is decoded the way the request wants.
    @Test func matchAnimatedImageClass() async throws {
        let cache = makeCache()
        try await cache.store(nil, data: Self.animatedData, forKey: "anim")
        let lazy = try #require(await cache.queryImage(forKey: "anim")?.image)
        #expect(lazy.isLazilyAnimated)
        // Without the option the memory hit is returned whatever the wish.
        let any = try #require(await cache.queryImage(forKey: "anim", options: .preloadAllFrames, context: WebImageContext(), cacheType: .all))
        #expect(any.cacheType == .memory && any.image?.isLazilyAnimated == true)
        // With it, the mismatch is a memory miss; the disk hit is decoded with every frame.
        let preloaded = try #require(await cache.queryImage(forKey: "anim", options: [.preloadAllFrames, .matchAnimatedImageClass], context: WebImageContext(), cacheType: .all))
        #expect(preloaded.cacheType == .disk)
        #expect(preloaded.image?.isLazilyAnimated == false && preloaded.image?.frameCount == 3)
        // A matching memory hit is a hit.
        let match = try #require(await cache.queryImage(forKey: "anim", options: [.preloadAllFrames, .matchAnimatedImageClass], context: WebImageContext(), cacheType: .all))
        #expect(match.cacheType == .memory)
        // Memory-only: a mismatch is simply a miss.
        #expect(await cache.queryImage(forKey: "anim", options: .matchAnimatedImageClass, context: WebImageContext(), cacheType: .memory) == nil)
    }

    @Test func avoidDecodeImageReturnsDataOnly() async throws {
        let mock = MockImageCoder(name: "m", magic: Array("WIRAW".utf8), format: .rawBitmap)
        let cache = makeCache(coder: mock)
        try await cache.store(nil, data: Self.data, forKey: "k")
        let hit = try #require(await cache.queryImage(forKey: "k", options: .avoidDecodeImage, context: WebImageContext(), cacheType: .all))
        #expect(hit.image == nil && hit.data == Self.data && hit.cacheType == .disk)
        #expect(mock.decodeCount == 0)
        #expect(cache.imageFromMemoryCache(forKey: "k") == nil)
    }

    @Test func storeCacheTypeInContextAndConfigControlPromotion() async throws {
        let cache = makeCache()
        try await cache.store(nil, data: Self.data, forKey: "k")
        var context = WebImageContext()
        context.storeCacheType = .disk
        #expect(await cache.queryImage(forKey: "k", options: [], context: context, cacheType: .all)?.cacheType == .disk)
        #expect(cache.imageFromMemoryCache(forKey: "k") == nil, "storeCacheType .disk: no promotion")

        var config = cache.config
        config.shouldCacheImagesInMemory = false
        cache.config = config
        try await cache.store(Self.image, data: Self.data, forKey: "k2")
        #expect(cache.imageFromMemoryCache(forKey: "k2") == nil)
        #expect(await cache.queryImage(forKey: "k2")?.cacheType == .disk)
        #expect(cache.imageFromMemoryCache(forKey: "k2") == nil)
    }

    @Test func configChangesReachTheTiers() throws {
        let cache = makeCache()
        var config = cache.config
        config.memoryCostLimit = 1234
        config.memoryCountLimit = 5
        config.maxDiskSize = 999
        config.maxDiskAge = 60
        config.diskExpireType = .creationDate
        cache.config = config
        #expect(cache.memoryCache.costLimit == 1234 && cache.memoryCache.countLimit == 5)
        let diskConfig = try #require(cache.diskCache).config
        #expect(diskConfig.sizeLimit == 999 && diskConfig.maxAge == 60)
        #expect(diskConfig.expireType == .creationDate)
    }

    /// Without data, a still image is encoded through the coder: PNG when it has alpha, JPEG
    /// when not.
    @Test(arguments: [(true, ImageFormat.png), (false, .jpeg)])
    func imageWithoutDataIsEncoded(_ alpha: Bool, _ format: ImageFormat) async throws {
        let coder = MockImageCoder(name: "encoder", magic: Array("ENC".utf8), format: format)
        let cache = makeCache(coder: coder)
        let image = WebImage(bitmap: TestImages.gradient(alpha: alpha))
        try await cache.store(image, forKey: "k")
        #expect(coder.calls.all == [.encode(format: format)])
        #expect(cache.diskImageData(forKey: "k") == Data(Array("ENC".utf8) + Array("encoder".utf8)))
    }

    /// When no coder can encode the format, the image stays in memory only and the store says so.
    @Test func unencodableImageStaysInMemoryAndTheStoreSaysSo() async throws {
        let coder = MockImageCoder(name: "png-only", magic: Array("PNGX".utf8), format: .png)
        let cache = makeCache(coder: coder)
        let opaque = WebImage(bitmap: TestImages.gradient(alpha: false))  // wants JPEG
        let error = try await #require(throws: WebImageError.self) { try await cache.store(opaque, forKey: "k") }
        #expect(error.code == .cacheFailure)
        #expect(error.message.contains("memory only") && error.message.contains("jpeg"), "\(error.message)")
        #expect(cache.imageFromMemoryCache(forKey: "k") != nil)
        #expect(!cache.diskImageDataExists(forKey: "k"))
        // Disk alone: nothing is stored, and the message says that.
        let diskError = try await #require(throws: WebImageError.self) { try await cache.store(opaque, forKey: "d", cacheType: .disk) }
        #expect(diskError.message.contains("was not stored"))
    }

    /// A lazily animated image without data is stored as its original data (no re-encoding).
    @Test func lazyAnimatedImageStoresItsOwnData() async throws {
        let cache = makeCache(coder: MockImageCoder(name: "nothing", magic: [0], format: .png))
        let lazy = try RawBitmapCoder().decode(Self.animatedData)
        #expect(lazy.isLazilyAnimated)
        try await cache.store(lazy, forKey: "anim")
        #expect(cache.diskImageData(forKey: "anim") == Self.animatedData)
    }

    /// Garbage, truncated data, and empty files are misses and are removed; data of a known
    /// format no coder here decodes is a miss but stays.
    @Test(arguments: ["garbage", "truncated", "empty", "known format, no coder"])
    func corruptFilesAreMisses(_ kind: String) async throws {
        let cache = makeCache()
        let bytes: Data = switch kind {
        case "garbage": Data("this is not an image at all".utf8)
        case "truncated": Self.data.prefix(Self.data.count / 2)
        case "empty": Data()
        default: Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 0, count: 32))  // PNG signature
        }
        try #require(cache.diskCache).setData(bytes, forKey: "k")
        for options in [WebImageOptions(), .queryDiskDataSync] {
            #expect(await cache.queryImage(forKey: "k", options: options, context: WebImageContext(), cacheType: .all) == nil)
        }
        #expect(cache.imageFromCache(forKey: "k") == nil)
        let kept = kind == "known format, no coder"
        #expect(cache.diskImageDataExists(forKey: "k") == kept)
    }

    /// A read-only disk (here: a directory that cannot be created, which stops root too) makes
    /// the store throw, and the memory cache keeps working.
    @Test func unwritableDiskReportsAnErrorAndMemoryKeepsWorking() async throws {
        try Data("a file".utf8).writeWithoutSync(to: root.url.appendingPathComponent("file"))
        let cache = WebImageCache(namespace: "test", directory: root.url.appendingPathComponent("file"), coder: RawBitmapCoder())
        let error = try await #require(throws: WebImageError.self) { try await cache.store(Self.image, data: Self.data, forKey: "k") }
        #expect(error.code == .cacheFailure)
        #expect(error.message.contains("stored in memory"), "\(error.message)")
        let hit = try #require(await cache.queryImage(forKey: "k"))
        #expect(hit.cacheType == .memory)
        try await cache.store(Self.image, data: nil, forKey: "m", cacheType: .memory)
        #expect(await cache.queryImage(forKey: "m") != nil)
    }

    @Test func removeAndClearByType() async throws {
        let cache = makeCache()
        for key in ["a", "b"] { try await cache.store(Self.image, data: Self.data, forKey: key) }
        await cache.removeImage(forKey: "a", cacheType: .memory)
        #expect(await cache.containsImage(forKey: "a", cacheType: .all) == .disk)
        await cache.removeImage(forKey: "a", cacheType: .disk)
        #expect(await cache.containsImage(forKey: "a", cacheType: .all) == .none)
        await cache.clear(cacheType: .disk)
        #expect(await cache.containsImage(forKey: "b", cacheType: .all) == .memory)
        try await cache.store(Self.image, data: Self.data, forKey: "b")
        await cache.clear(cacheType: .memory)
        #expect(await cache.containsImage(forKey: "b", cacheType: .all) == .disk)
        await cache.clear(cacheType: .all)
        #expect(await cache.containsImage(forKey: "b", cacheType: .all) == .none)
        #expect(cache.totalDiskCount() == 0 && cache.memoryCache.totalCount == 0)
    }

    @Test func dataOnlyStoreForMemoryIsDecoded() async throws {
        let cache = makeCache()
        try await cache.store(nil, data: Self.data, forKey: "k", cacheType: .memory)
        #expect(cache.imageFromMemoryCache(forKey: "k")?.pixelSize == Self.image.pixelSize)
        #expect(!cache.diskImageDataExists(forKey: "k"))
        let error = try await #require(throws: WebImageError.self) { try await cache.store(nil, data: Data("bad".utf8), forKey: "bad", cacheType: .memory) }
        #expect(error.code == .badImageData)
        await #expect(throws: WebImageError.self) { try await cache.store(nil, data: nil, forKey: "none") }
    }

    @Test func synchronousAPI() async throws {
        let cache = makeCache()
        try await cache.store(Self.image, data: Self.data, forKey: "k", cacheType: .disk)
        #expect(cache.imageFromMemoryCache(forKey: "k") == nil)
        #expect(cache.imageFromDiskCache(forKey: "k")?.pixelSize == Self.image.pixelSize)
        #expect(cache.imageFromMemoryCache(forKey: "k") != nil, "the sync disk read promotes too")
        #expect(cache.imageFromCache(forKey: "k") != nil)
        #expect(cache.diskImageDataExists(forKey: "k"))
        #expect(cache.totalDiskCount() == 1 && cache.totalDiskSize() == Self.data.count)
        #expect(await cache.removeExpiredData() == 0)
    }

    @Test func cancelledQueryIsAMiss() async throws {
        let cache = makeCache()
        try await cache.store(Self.image, data: Self.data, forKey: "k")
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await cache.queryImage(forKey: "k")
        }
        #expect(await task.value == nil)
    }
}
