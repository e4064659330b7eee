import Foundation
import Testing
import WebImageTestSupport
import WebImageCaches
import WebImageCore

/// Both loading APIs of ``ImageManager`` answer a memory hit before they make a task, a
/// continuation or a registration, with every rule of the request applied first: the
/// context's cache, the key's thumbnail and transformer parts, the cache key filter, the
/// blocked URLs; and the options that must not end at the memory tier go the usual way.
///
/// "The usual way" is seen through ``CountingCache``: the pipeline always makes a suspending
/// query, the fast path never does.
@Suite struct ManagerMemoryFastPathTests {
    let root = TestDirectory()
    let cache: CountingCache
    let loader = MockImageLoader()
    let manager: ImageManager
    let url = URL(string: "https://example.com/fast/photo.png")!
    static let plain = TestImages.still(width: 9, height: 7, seed: 11)
    static let variant = TestImages.still(width: 4, height: 3, seed: 23)
    static let loaded = TestImages.still(width: 16, height: 12)

    init() {
        RawBitmapCoder.registerFormat()
        cache = CountingCache(WebImageCache(namespace: "fast", directory: root.url, config: WebImageCache.Config(), coder: RawBitmapCoder()))
        manager = ImageManager(cache: cache, loader: loader)
    }

    /// Puts `image` in the memory tier only, under `key`.
    func remember(_ image: WebImage, forKey key: String, in target: CountingCache? = nil) async throws {
        try await (target ?? cache).store(image, data: nil, forKey: key, options: [], context: WebImageContext(), cacheType: .memory)
    }

    /// Asserts that `result` is the memory hit of `image` under `key`, answered without the
    /// pipeline (no suspending query) and without the loader.
    func expectFastHit(_ result: ImageLoadResult, _ image: WebImage, key: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.cacheType == .memory, sourceLocation: sourceLocation)
        #expect(result.image?.pixelSize == image.pixelSize, sourceLocation: sourceLocation)
        #expect(result.cacheKey == key, sourceLocation: sourceLocation)
        #expect(cache.suspendingQueries.count == 0, "the pipeline never ran", sourceLocation: sourceLocation)
        #expect(loader.requestCount == 0, sourceLocation: sourceLocation)
        #expect(!manager.isRunning, sourceLocation: sourceLocation)
    }

    // MARK: The fast path, with each override

    @Test func aPlainMemoryHitIsAnsweredWithoutThePipeline() async throws {
        try await remember(Self.plain, forKey: url.absoluteString)
        expectFastHit(try await manager.loadImage(with: url), Self.plain, key: url.absoluteString)
        #expect(cache.immediateQueries.all == [.all])
    }

    @Test func theContextsCacheIsTheOneAsked() async throws {
        let other = CountingCache(WebImageCache(namespace: "other", directory: root.url.appendingPathComponent("other"), config: WebImageCache.Config(), coder: RawBitmapCoder()))
        try await remember(Self.variant, forKey: url.absoluteString, in: other)
        try await remember(Self.plain, forKey: url.absoluteString)
        let result = try await manager.loadImage(with: url, context: WebImageContext { $0.imageCache = other })
        expectFastHit(result, Self.variant, key: url.absoluteString)
        #expect(cache.immediateQueries.count == 0, "the manager's cache is not asked")
        #expect(other.immediateQueries.count == 1)
    }

    @Test func aTransformerRequestHitsItsOwnKeyNotThePlainOne() async throws {
        let transformer = MockImageTransformer(key: "Fast")
        let key = try #require(manager.cacheKey(for: url, context: WebImageContext { $0.imageTransformer = transformer }))
        #expect(key != url.absoluteString)
        try await remember(Self.plain, forKey: url.absoluteString)
        try await remember(Self.variant, forKey: key)
        expectFastHit(try await manager.loadImage(with: url, context: WebImageContext { $0.imageTransformer = transformer }), Self.variant, key: key)
        expectFastHit(try await manager.loadImage(with: url), Self.plain, key: url.absoluteString)
    }

    @Test func theManagersDefaultTransformerIsInTheKey() async throws {
        let transformer = MockImageTransformer(key: "Default")
        let key = ImageManager.transformedKey(url.absoluteString, transformerKey: transformer.transformerKey)
        try await remember(Self.plain, forKey: url.absoluteString)
        try await remember(Self.variant, forKey: key)
        manager.transformer = transformer
        expectFastHit(try await manager.loadImage(with: url), Self.variant, key: key)
    }

    @Test func aThumbnailRequestHitsItsOwnKey() async throws {
        let size = PixelSize(width: 4, height: 4)
        let context = WebImageContext { $0.imageThumbnailPixelSize = size }
        let key = ImageManager.thumbnailedKey(url.absoluteString, size: size, preserveAspectRatio: true)
        try await remember(Self.plain, forKey: url.absoluteString)
        try await remember(Self.variant, forKey: key)
        expectFastHit(try await manager.loadImage(with: url, context: context), Self.variant, key: key)
    }

    @Test func theCacheKeyFilterNamesTheKey() async throws {
        let filter = FixedKeyFilter(key: "filtered-key")
        try await remember(Self.plain, forKey: url.absoluteString)
        try await remember(Self.variant, forKey: "filtered-key")
        expectFastHit(try await manager.loadImage(with: url, context: WebImageContext { $0.cacheKeyFilter = filter }), Self.variant, key: "filtered-key")
        manager.cacheKeyFilter = filter
        expectFastHit(try await manager.loadImage(with: url), Self.variant, key: "filtered-key")
    }

    @Test func fromCacheOnlyIsServedToo() async throws {
        try await remember(Self.plain, forKey: url.absoluteString)
        expectFastHit(try await manager.loadImage(with: url, options: [.fromCacheOnly]), Self.plain, key: url.absoluteString)
    }

    @Test func aFastHitIsReportedAsACacheHit() async throws {
        let events = Locked<[String]>([])
        let observation = manager.addEventObserver { event in events.withLock { $0.append(event.kind.description) } }
        defer { observation.cancel() }
        try await remember(Self.plain, forKey: url.absoluteString)
        expectFastHit(try await manager.loadImage(with: url), Self.plain, key: url.absoluteString)
        #expect(events.withLock { $0 } == ["started", "cacheHit(memory)", "finished(memory)"])
    }

    @Test func theCompletionHandlerAPICompletesAVariantHitBeforeItReturns() async throws {
        let size = PixelSize(width: 4, height: 4)
        let key = ImageManager.thumbnailedKey(url.absoluteString, size: size, preserveAspectRatio: true)
        try await remember(Self.plain, forKey: url.absoluteString)
        try await remember(Self.variant, forKey: key)
        let completions = CallRecorder<Result<ImageLoadResult, WebImageError>>()
        let operation = manager.loadImage(with: url, context: WebImageContext { $0.imageThumbnailPixelSize = size }) { completions.record($0) }
        let result = try #require(try completions.all.first?.get(), "completed before loadImage returned")
        expectFastHit(result, Self.variant, key: key)
        #expect(!operation.isCancelled)
    }

    // MARK: What must not end at the memory tier

    @Test(arguments: [WebImageOptions.fromLoaderOnly, .refreshCached])
    func optionsThatAskTheLoaderBypassMemory(_ options: WebImageOptions) async throws {
        try await remember(Self.plain, forKey: url.absoluteString)
        let result = try await manager.loadImage(with: url, options: options)
        #expect(loader.requestCount == 1)
        #expect(result.cacheType == .none)
        #expect(result.image?.pixelSize == Self.loaded.pixelSize)
        #expect(cache.immediateQueries.count == 0)
    }

    @Test func aQueryTierWithoutMemoryBypassesIt() async throws {
        try await remember(Self.plain, forKey: url.absoluteString)
        let result = try await manager.loadImage(with: url, context: WebImageContext { $0.queryCacheType = .disk })
        #expect(loader.requestCount == 1, "the entry is in memory only")
        #expect(result.cacheType == .none)
    }

    @Test func queryMemoryDataGoesTheUsualWayForTheData() async throws {
        let data = try RawBitmapCoder().encode(Self.plain, as: .rawBitmap)
        try await cache.store(Self.plain, data: data, forKey: url.absoluteString, options: [], context: WebImageContext(), cacheType: .all)
        let result = try await manager.loadImage(with: url, options: [.queryMemoryData])
        #expect(result.cacheType == .memory)
        #expect(result.data == data, "the data came from disk")
        #expect(cache.suspendingQueries.count == 1)
        #expect(loader.requestCount == 0)
    }

    @Test func theAsyncAPINeverReadsTheDiskOnTheCallingThread() async throws {
        let data = try RawBitmapCoder().encode(Self.plain, as: .rawBitmap)
        try await cache.store(Self.plain, data: data, forKey: url.absoluteString, options: [], context: WebImageContext(), cacheType: .disk)
        let result = try await manager.loadImage(with: url, options: [.queryDiskDataSync])
        #expect(result.cacheType == .disk)
        #expect(cache.immediateQueries.count == 1)
        #expect(cache.suspendingQueries.count == 1, "the disk was read by the pipeline, off the calling thread")
        #expect(loader.requestCount == 0)
    }

    @Test func aBlockedURLFailsEvenWithItsImageInMemory() async throws {
        loader.respond(to: url, with: .failure(WebImageError(.invalidDownloadStatusCode, "gone")))
        loader.setBlocksFailedURLs(true)
        await #expect(throws: WebImageError.self) { try await manager.loadImage(with: url) }
        #expect(manager.isFailedURL(url))
        try await remember(Self.plain, forKey: url.absoluteString)
        let error = try await #require(throws: WebImageError.self) { try await manager.loadImage(with: url) }
        #expect(error.code == .blockedURL)
        let retried = try await manager.loadImage(with: url, options: [.retryFailed])
        #expect(retried.cacheType == .memory)
        #expect(retried.image?.pixelSize == Self.plain.pixelSize)
    }

    @Test func aCancelledTaskIsRefusedEvenOnAHit() async throws {
        try await remember(Self.plain, forKey: url.absoluteString)
        let manager = manager, url = url
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await manager.loadImage(with: url)
        }
        let error = try await #require(throws: WebImageError.self) { try await task.value }
        #expect(error.code == .cancelled)
        #expect(loader.requestCount == 0)
    }
}

/// A cache key filter that gives one key for every URL.
struct FixedKeyFilter: CacheKeyFilter {
    let key: String
    func cacheKey(for url: URL) -> String? { key }
}

/// A ``WebImageCache`` that counts its immediate and its suspending queries.
final class CountingCache: ImageCache {
    let inner: WebImageCache
    /// The tiers of every immediate query.
    let immediateQueries = CallRecorder<ImageCacheType>()
    /// The keys of every suspending query.
    let suspendingQueries = CallRecorder<String>()

    init(_ inner: WebImageCache) { self.inner = inner }

    func queryImageImmediately(forKey key: String, options: WebImageOptions, context: WebImageContext, cacheType: ImageCacheType) -> ImmediateCacheAnswer {
        immediateQueries.record(cacheType)
        return inner.queryImageImmediately(forKey: key, options: options, context: context, cacheType: cacheType)
    }

    func queryImage(forKey key: String, options: WebImageOptions, context: WebImageContext, cacheType: ImageCacheType) async -> ImageCacheResult? {
        suspendingQueries.record(key)
        return await inner.queryImage(forKey: key, options: options, context: context, cacheType: cacheType)
    }

    func store(_ image: WebImage?, data: Data?, forKey key: String, options: WebImageOptions, context: WebImageContext, cacheType: ImageCacheType) async throws {
        try await inner.store(image, data: data, forKey: key, options: options, context: context, cacheType: cacheType)
    }

    func removeImage(forKey key: String, cacheType: ImageCacheType) async { await inner.removeImage(forKey: key, cacheType: cacheType) }
    func containsImage(forKey key: String, cacheType: ImageCacheType) async -> ImageCacheType { await inner.containsImage(forKey: key, cacheType: cacheType) }
    func clear(cacheType: ImageCacheType) async { await inner.clear(cacheType: cacheType) }
}
