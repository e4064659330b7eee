import Foundation
import Testing
import WebImageTestSupport
import WebImageCore

/// One test per branch of the manager's flow (SDWebImage's manager flow), with mocks
/// that count their calls.
@Suite struct ImageManagerFlowTests {
    let cache = MockImageCache(name: "default")
    let loader = MockImageLoader(name: "default")
    let manager: ImageManager
    let url = URL(string: "https://example.com/photo.png")!

    init() {
        manager = ImageManager(cache: cache, loader: loader)
    }

    // MARK: URL checks and options processor

    @Test func nilURLFailsAtOnceWithInvalidURL() async throws {
        let error = try await #require(throws: WebImageError.self) { try await manager.loadImage(with: nil) }
        #expect(error.code == .invalidURL)
        #expect(error.message == "Image url is nil")
        #expect(cache.calls.count == 0)
        #expect(loader.requestCount == 0)
    }

    @Test func optionsProcessorRewritesOptionsAndTheContextsWins() async throws {
        manager.optionsProcessor = ClosureOptionsProcessor { _, options, context in
            OptionsProcessorResult(options: options.union(.fromCacheOnly), context: context)
        }
        let error = try await #require(throws: WebImageError.self) { try await manager.loadImage(with: url) }
        #expect(error.code == .cacheMiss, "the manager's processor added fromCacheOnly")
        #expect(loader.requestCount == 0)

        let context = WebImageContext {
            $0.optionsProcessor = ClosureOptionsProcessor { _, options, context in
                OptionsProcessorResult(options: options, context: context.setting(WebImageContextKeys.StoreCacheType.self, to: ImageCacheType.none))
            }
        }
        _ = try await manager.loadImage(with: url, options: [.waitStoreCache], context: context)
        #expect(loader.requestCount == 1, "the context's processor replaced the manager's")
        #expect(cache.storeCount == 0, "the processor's context applies (storeCacheType none)")
    }

    // MARK: Blocked URLs

    @Test func notFoundBlocksTheURLUntilRetryFailedSucceeds() async throws {
        loader.respond(to: url, with: .failure(WebImageError(.invalidDownloadStatusCode, "404", statusCode: 404)))
        let first = try await #require(throws: WebImageError.self) { try await manager.loadImage(with: url) }
        #expect(first.code == .invalidDownloadStatusCode)
        #expect(first.statusCode == 404)
        #expect(first.url == url)
        #expect(manager.isFailedURL(url))

        let blocked = try await #require(throws: WebImageError.self) { try await manager.loadImage(with: url) }
        #expect(blocked.code == .blockedURL)
        #expect(loader.requestCount == 1, "a blocked URL never reaches the loader")

        loader.respond(to: url, with: MockImageLoader.defaultResponse(for: url))
        let retried = try await manager.loadImage(with: url, options: [.retryFailed])
        #expect(retried.image != nil)
        #expect(loader.requestCount == 2)
        #expect(!manager.isFailedURL(url), "a success with retryFailed unblocks")
        _ = try await manager.loadImage(with: url, options: [.fromLoaderOnly])
        #expect(loader.requestCount == 3)
    }

    @Test(arguments: [URLError.Code.timedOut, .notConnectedToInternet, .cannotFindHost, .networkConnectionLost])
    func transientNetworkFailureDoesNotBlock(_ code: URLError.Code) async throws {
        loader.respond(to: url, with: .failure(WebImageError(.invalidDownloadResponse, "network", underlyingError: URLError(code))))
        _ = try? await manager.loadImage(with: url)
        #expect(!manager.isFailedURL(url))
        _ = try? await manager.loadImage(with: url)
        #expect(loader.requestCount == 2)
    }

    @Test func loaderDecidesWhatBlocks() async throws {
        loader.respond(to: url, with: .failure(WebImageError(.badImageData, "bad")))
        loader.setBlocksFailedURLs(false)
        _ = try? await manager.loadImage(with: url)
        #expect(!manager.isFailedURL(url))
        loader.setBlocksFailedURLs(true)
        _ = try? await manager.loadImage(with: url)
        #expect(manager.isFailedURL(url))
        manager.removeAllFailedURLs()
        #expect(manager.failedURLs.isEmpty)
    }

    @Test func nonWebImageErrorsAreWrapped() async throws {
        struct Oops: Error {}
        loader.respond(to: url, with: .failure(Oops()))
        let error = try await #require(throws: WebImageError.self) { try await manager.loadImage(with: url) }
        #expect(error.code == .loaderFailed)
        #expect(error.underlyingError is Oops)
        #expect(error.url == url)
    }

    // MARK: Cache query

    @Test(arguments: [ImageCacheType.memory, .disk])
    func cacheHitEndsTheRequestWithoutTheLoader(_ tier: ImageCacheType) async throws {
        cache.preload(TestImages.still(width: 3, height: 3), data: Data([7]), forKey: url.absoluteString, cacheType: tier)
        let result = try await manager.loadImage(with: url)
        #expect(result.cacheType == tier)
        #expect(result.image?.pixelSize == PixelSize(width: 3, height: 3))
        #expect(result.data == Data([7]))
        #expect(result.cacheKey == url.absoluteString)
        #expect(loader.requestCount == 0)
    }

    @Test func queryCacheTypeIsPassedToTheCache() async throws {
        cache.preload(TestImages.still(), forKey: url.absoluteString, cacheType: .disk)
        let result = try await manager.loadImage(with: url, context: WebImageContext { $0.queryCacheType = .memory })
        #expect(cache.calls.all.first == .query(key: url.absoluteString, cacheType: .memory))
        #expect(result.cacheType == .none, "the disk entry was not asked for, so the loader ran")
        #expect(loader.requestCount == 1)
    }

    @Test func fromLoaderOnlySkipsTheQuery() async throws {
        cache.preload(TestImages.still(), forKey: url.absoluteString)
        let result = try await manager.loadImage(with: url, options: [.fromLoaderOnly, .waitStoreCache])
        #expect(cache.queryCount == 0)
        #expect(loader.requestCount == 1)
        #expect(result.cacheType == .none)
        #expect(cache.storeCount == 1)
    }

    @Test func fromCacheOnlyMissFailsWithoutTheLoader() async throws {
        let error = try await #require(throws: WebImageError.self) { try await manager.loadImage(with: url, options: [.fromCacheOnly]) }
        #expect(error.code == .cacheMiss)
        #expect(loader.requestCount == 0)
    }

    // MARK: refreshCached

    @Test func refreshCachedDeliversTheCachedImageThenTheFreshOne() async throws {
        let cachedImage = TestImages.still(width: 2, height: 2)
        cache.preload(cachedImage, forKey: url.absoluteString)
        let events = CallRecorder<String>()
        let result = try await manager.loadImage(with: url, options: [.refreshCached]) { event in
            if case .cachedImage(let cached) = event { events.record("cached \(cached.image!.pixelSize) \(cached.cacheType)") }
        }
        #expect(events.all == ["cached 2x2 memory"])
        #expect(result.cacheType == .none)
        #expect(result.image?.pixelSize == TestImages.still().pixelSize)
        let call = try #require(loader.calls.all.first)
        #expect(call.context.loaderCachedImage?.pixelSize == PixelSize(width: 2, height: 2))
    }

    @Test func refreshCachedNotModifiedEndsWithTheCachedImage() async throws {
        cache.preload(TestImages.still(width: 2, height: 2), forKey: url.absoluteString)
        loader.respond(to: url, with: .failure(WebImageError(.cacheNotModified, "304", statusCode: 304)))
        let result = try await manager.loadImage(with: url, options: [.refreshCached])
        #expect(result.image?.pixelSize == PixelSize(width: 2, height: 2))
        #expect(result.cacheType == .memory)
        #expect(!manager.isFailedURL(url))
    }

    // MARK: Loader edge cases

    @Test func urlNoLoaderCanRequestIsUnsupported() async throws {
        let error = try await #require(throws: WebImageError.self) {
            try await manager.loadImage(with: URL(string: "ftp://example.com/a.png")!)
        }
        #expect(error.code == .unsupportedURL)
    }

    @Test func loaderResultWithoutImageIsBadImageData() async throws {
        loader.respond(to: url, with: .image(WebImage(bitmap: try Bitmap(width: 0, height: 0)), data: Data([1])))
        let empty = try await #require(throws: WebImageError.self) { try await manager.loadImage(with: url) }
        #expect(empty.code == .badImageData)
        #expect(empty.message.contains("0 pixels"))
    }

    @Test func avoidDecodeImageDeliversData() async throws {
        let dataOnly = DataOnlyLoader()
        let manager = ImageManager(cache: cache, loader: dataOnly)
        let result = try await manager.loadImage(with: url, options: [.avoidDecodeImage, .waitStoreCache])
        #expect(result.image == nil)
        #expect(result.data == Data([1, 2, 3]))
        #expect(cache.calls.all.contains(.store(key: url.absoluteString, cacheType: .all, hasImage: false, hasData: true)))
        let error = try await #require(throws: WebImageError.self) { try await manager.loadImage(with: URL(string: "https://example.com/other.png")!) }
        #expect(error.code == .badImageData)
    }

    // MARK: Store

    @Test func storeUsesStoreCacheTypeWithTheData() async throws {
        _ = try await manager.loadImage(with: url, options: [.waitStoreCache])
        #expect(cache.calls.all.last == .store(key: url.absoluteString, cacheType: .all, hasImage: true, hasData: true))
        _ = try await manager.loadImage(with: url, options: [.waitStoreCache, .fromLoaderOnly], context: WebImageContext { $0.storeCacheType = .memory })
        #expect(cache.calls.all.last == .store(key: url.absoluteString, cacheType: .memory, hasImage: true, hasData: true))
        let before = cache.storeCount
        _ = try await manager.loadImage(with: url, options: [.waitStoreCache, .fromLoaderOnly], context: WebImageContext { $0.storeCacheType = ImageCacheType.none })
        #expect(cache.storeCount == before)
    }

    @Test func waitStoreCacheHoldsTheResultUntilTheStoreEnds() async throws {
        let storeGate = AsyncGate()
        let gatedCache = GatedStoreCache(gate: storeGate)
        let manager = ImageManager(cache: gatedCache, loader: loader)
        let delivered = CallRecorder<Bool>()
        let running = Task {
            _ = try await manager.loadImage(with: url, options: [.waitStoreCache])
            delivered.record(true)
        }
        await storeGate.waitForArrivals(1)
        #expect(delivered.count == 0, "the store is suspended, so the result must wait")
        storeGate.open()
        try await running.value
        #expect(delivered.count == 1)
    }

    @Test func withoutWaitStoreCacheTheResultComesBeforeTheStoreEnds() async throws {
        let storeGate = AsyncGate()
        let gatedCache = GatedStoreCache(gate: storeGate)
        let manager = ImageManager(cache: gatedCache, loader: loader)
        let result = try await manager.loadImage(with: url)
        #expect(result.image != nil)
        await storeGate.waitForArrivals(1)
        #expect(manager.isRunning, "the load stays registered while it stores")
        storeGate.open()
    }

    /// The finished load's image is handed over (no second load), labelled with where it came
    /// from: `.none`, freshly loaded.
    @Test func aRequestArrivingWhileTheLoadStoresGetsItsResultAndLabel() async throws {
        let storeGate = AsyncGate()
        let manager = ImageManager(cache: GatedStoreCache(gate: storeGate), loader: loader)
        let first = try await manager.loadImage(with: url)
        #expect(first.cacheType == .none)
        await storeGate.waitForArrivals(1)
        let second = try await manager.loadImage(with: url)
        #expect(second.cacheType == .none, "the finished load's image is handed over as loaded")
        #expect(second.image?.pixelSize == first.image?.pixelSize)
        #expect(loader.requestCount == 1)
        storeGate.open()
    }

    @Test func cacheSerializerChoosesTheStoredData() async throws {
        manager.cacheSerializer = ClosureCacheSerializer { _, data, _ in data.map { Data([0xEE]) + $0 } }
        _ = try await manager.loadImage(with: url, options: [.waitStoreCache])
        let stored = try #require(await cache.queryImage(forKey: url.absoluteString))
        #expect(stored.data == Data([0xEE]) + Data("mock:\(url.absoluteString)".utf8))
    }

    // MARK: Transform

    @Test func transformedRequestStoresOriginalAndTransformed() async throws {
        let transformer = MockImageTransformer(key: "Flip(1,0)")
        let result = try await manager.loadImage(with: url, options: [.waitStoreCache], context: WebImageContext { $0.imageTransformer = transformer })
        let key = "https://example.com/photo|Flip(1,0)|.png"
        #expect(result.cacheKey == key)
        #expect(result.image?.metadata.contains(.transformed) == true)
        #expect(result.data == nil)
        #expect(transformer.calls.all == [MockImageTransformer.Call(key: key, inputSize: TestImages.still().pixelSize)])
        let stores = cache.calls.all.filter { if case .store = $0 { true } else { false } }
        #expect(stores.contains(.store(key: url.absoluteString, cacheType: .disk, hasImage: true, hasData: true)), "original under the original key, disk by default")
        #expect(stores.contains(.store(key: key, cacheType: .all, hasImage: true, hasData: false)), "transformed under the key, no data")
    }

    @Test func transformedRequestWithCachedOriginalDoesNotLoad() async throws {
        cache.preload(TestImages.still(width: 5, height: 4), data: Data([9]), forKey: url.absoluteString, cacheType: .disk)
        let transformer = MockImageTransformer(key: "Blur(2)")
        let result = try await manager.loadImage(with: url, options: [.waitStoreCache], context: WebImageContext { $0.imageTransformer = transformer })
        #expect(loader.requestCount == 0)
        #expect(transformer.calls.count == 1)
        #expect(result.cacheType == .disk)
        #expect(result.image?.pixelSize == PixelSize(width: 5, height: 4))
        #expect(cache.keys(in: .all).contains("https://example.com/photo|Blur(2)|.png"))
        // The next request hits the transformed key directly.
        _ = try await manager.loadImage(with: url, context: WebImageContext { $0.imageTransformer = transformer })
        #expect(transformer.calls.count == 1)
    }

    @Test func originalImageCacheAndTypesComeFromTheContext() async throws {
        let originals = MockImageCache(name: "originals")
        var context = WebImageContext()
        context.imageTransformer = MockImageTransformer(key: "T")
        context.originalImageCache = originals
        context.originalQueryCacheType = .disk
        context.originalStoreCacheType = .all
        _ = try await manager.loadImage(with: url, options: [.waitStoreCache], context: context)
        #expect(originals.calls.all == [
            .query(key: url.absoluteString, cacheType: .disk),
            .store(key: url.absoluteString, cacheType: .all, hasImage: true, hasData: true),
        ])
        #expect(cache.keys(in: .all) == ["https://example.com/photo|T|.png"])
    }

    @Test func animatedImagesAreNotTransformedUnlessAsked() async throws {
        loader.respond(to: url, with: .image(TestImages.animated(frames: 3), data: Data([1])))
        let transformer = MockImageTransformer(key: "T")
        let context = WebImageContext { $0.imageTransformer = transformer }
        let plain = try await manager.loadImage(with: url, context: context)
        #expect(transformer.calls.count == 0)
        #expect(plain.image?.frameCount == 3)
        let transformed = try await manager.loadImage(with: url, options: [.transformAnimatedImage, .fromLoaderOnly], context: context)
        #expect(transformer.calls.count == 1)
        #expect(transformed.image?.metadata.contains(.transformed) == true)
    }

    @Test func transformerFailureIsAClearError() async throws {
        let transformer = MockImageTransformer(key: "Crop(0,0,500,500)")
        transformer.error = WebImageError(.transformFailed, "crop rectangle is outside the 16x12 image")
        let error = try await #require(throws: WebImageError.self) {
            try await manager.loadImage(with: url, context: WebImageContext { $0.imageTransformer = transformer })
        }
        #expect(error.code == .transformFailed)
        #expect(error.url == url)
        #expect(!manager.isFailedURL(url))
    }

    // MARK: Events and callbacks

    @Test func progressAndPartialImagesReachTheCaller() async throws {
        loader.sendEvents([
            .progress(receivedBytes: 10, expectedBytes: 40),
            .partialImage(TestImages.still(width: 4, height: 4)),
            .progress(receivedBytes: 40, expectedBytes: 40),
        ])
        let seen = CallRecorder<String>()
        _ = try await manager.loadImage(with: url, options: [.progressiveLoad]) { event in
            switch event {
            case .progress(let received, let expected): seen.record("progress \(received)/\(expected ?? -1)")
            case .partialImage(let image): seen.record("partial \(image.pixelSize)")
            case .cachedImage: seen.record("cached")
            }
        }
        #expect(seen.all == ["progress 10/40", "partial 4x4", "progress 40/40"])
    }

    @Test func completionRunsOnTheCallbackQueue() async throws {
        let queue = DispatchQueue(label: "callbacks")
        let marker = DispatchSpecificKey<Int>()
        queue.setSpecific(key: marker, value: 42)
        loader.sendEvents([.progress(receivedBytes: 1, expectedBytes: 1)])
        let onQueue = CallRecorder<Bool>()
        let result: Result<ImageLoadResult, WebImageError> = await withCheckedContinuation { continuation in
            manager.loadImage(with: url, context: WebImageContext { $0.callbackQueue = .queue(queue) }, progress: { _ in
                onQueue.record(DispatchQueue.getSpecific(key: marker) == 42)
            }) { result in
                onQueue.record(DispatchQueue.getSpecific(key: marker) == 42)
                continuation.resume(returning: result)
            }
        }
        #expect(try result.get().image != nil)
        #expect(onQueue.all == [true, true])
    }

    @Test func updatesSequenceYieldsEventsThenTheResult() async throws {
        loader.sendEvents([.progress(receivedBytes: 3, expectedBytes: nil)])
        var seen: [String] = []
        for try await update in manager.updates(for: url) {
            switch update {
            case .event(.progress(let received, _)): seen.append("progress \(received)")
            case .event: seen.append("other event")
            case .finished(let result): seen.append("finished \(result.cacheType)")
            }
        }
        #expect(seen == ["progress 3", "finished none"])
    }

    @Test func completionAPIDeliversErrorsTyped() async {
        let result: Result<ImageLoadResult, WebImageError> = await withCheckedContinuation { continuation in
            manager.loadImage(with: nil) { continuation.resume(returning: $0) }
        }
        guard case .failure(let error) = result else { Issue.record("expected a failure"); return }
        #expect(error.code == .invalidURL)
    }
}

/// A loader that delivers data without an image (as a loader does with `avoidDecodeImage`),
/// and nothing at all for other URLs.
final class DataOnlyLoader: ImageLoader {
    func canRequestImage(for url: URL) -> Bool { true }
    func requestImage(with url: URL, options: WebImageOptions, context: WebImageContext, progress: ImageLoaderProgressHandler?) async throws -> ImageLoaderResult {
        url.lastPathComponent == "photo.png" ? ImageLoaderResult(image: nil, data: Data([1, 2, 3])) : ImageLoaderResult(image: nil, data: nil)
    }
}

/// A cache whose stores wait at a gate (queries always miss).
final class GatedStoreCache: ImageCache {
    let gate: AsyncGate
    init(gate: AsyncGate) { self.gate = gate }
    func queryImage(forKey key: String, options: WebImageOptions, context: WebImageContext, cacheType: ImageCacheType) async -> ImageCacheResult? { nil }
    func store(_ image: WebImage?, data: Data?, forKey key: String, options: WebImageOptions, context: WebImageContext, cacheType: ImageCacheType) async throws {
        await gate.wait()
    }
    func removeImage(forKey key: String, cacheType: ImageCacheType) async {}
    func containsImage(forKey key: String, cacheType: ImageCacheType) async -> ImageCacheType { .none }
    func clear(cacheType: ImageCacheType) async {}
}
