import Foundation
import Testing
import WebImageTestSupport
@testable import WebImageCore

/// The completion-handler API asks the cache first on the calling thread
/// (`queryImageImmediately`) and ends the request there on a usable hit, as SDWebImage's
/// memory hit does; anything else goes the usual way.
@Suite struct ImageManagerImmediateTests {
    let cache = ScriptedImmediateCache()
    let gate = AsyncGate()
    let loader: MockImageLoader
    let manager: ImageManager
    let url = URL(string: "https://example.com/immediate.png")!
    static let image = TestImages.still(width: 5, height: 3)

    init() {
        loader = MockImageLoader(gate: gate)
        manager = ImageManager(cache: cache, loader: loader)
    }

    /// Starts a request and returns the completions it got by the time the call returned.
    func startRequest(options: WebImageOptions = [], context: WebImageContext = WebImageContext()) -> (completed: [Result<ImageLoadResult, WebImageError>], operation: ImageOperation, completions: CallRecorder<Result<ImageLoadResult, WebImageError>>) {
        let completions = CallRecorder<Result<ImageLoadResult, WebImageError>>()
        let operation = manager.loadImage(with: url, options: options, context: context, completed: { completions.record($0) })
        return (completions.all, operation, completions)
    }

    @Test func aHitGivenAtOnceCompletesBeforeTheCallReturns() async throws {
        cache.immediate = .hit(ImageCacheResult(image: Self.image, cacheType: .memory))
        let (completed, _, _) = startRequest()
        let result = try #require(try completed.first?.get())
        #expect(completed.count == 1)
        #expect(result.cacheType == .memory)
        #expect(result.image?.pixelSize == Self.image.pixelSize)
        #expect(result.cacheKey == url.absoluteString)
        #expect(cache.immediateQueries.all == [.all])
        #expect(cache.queries.count == 0, "no second query")
        #expect(loader.requestCount == 0)
        #expect(!manager.isRunning, "nothing was registered")
    }

    @Test(arguments: [ImmediateCacheAnswer.unknown, .miss])
    func otherwiseTheRequestGoesTheUsualWay(_ answer: ImmediateCacheAnswer) async throws {
        cache.immediate = answer
        let (completed, _, completions) = startRequest()
        #expect(completed.isEmpty)
        #expect(manager.isRunning)
        await gate.waitForArrivals(1)
        gate.open()
        while completions.count == 0 { await Task.yield() }
        #expect(try completions.all.first?.get().cacheType == ImageCacheType.none)
        #expect(cache.queries.count == 1)
    }

    @Test(arguments: [WebImageOptions.fromLoaderOnly, .refreshCached])
    func optionsThatMustNotEndAtTheCacheSkipIt(_ options: WebImageOptions) async throws {
        cache.immediate = .hit(ImageCacheResult(image: Self.image, cacheType: .memory))
        let (completed, operation, _) = startRequest(options: options)
        #expect(completed.isEmpty)
        #expect(cache.immediateQueries.count == 0)
        operation.cancel()
        gate.open()
    }

    @Test func noQueryTierSkipsIt() async throws {
        cache.immediate = .hit(ImageCacheResult(image: Self.image, cacheType: .memory))
        let (completed, operation, _) = startRequest(context: WebImageContext { $0.queryCacheType = ImageCacheType.none })
        #expect(completed.isEmpty)
        #expect(cache.immediateQueries.count == 0)
        operation.cancel()
        gate.open()
    }

    @Test func theQueryTierIsPassedOn() async throws {
        cache.immediate = .hit(ImageCacheResult(image: Self.image, cacheType: .disk))
        let (completed, _, _) = startRequest(context: WebImageContext { $0.queryCacheType = .disk })
        #expect(cache.immediateQueries.all == [.disk])
        #expect(try completed.first?.get().cacheType == .disk)
    }

    @Test func aDataOnlyHitServesOnlyAvoidDecodeImage() async throws {
        cache.immediate = .hit(ImageCacheResult(image: nil, data: Data([7]), cacheType: .disk))
        let (withImage, operation, _) = startRequest()
        #expect(withImage.isEmpty, "data alone cannot serve a request that wants an image")
        operation.cancel()
        let (dataOnly, _, _) = startRequest(options: [.avoidDecodeImage])
        #expect(try dataOnly.first?.get().data == Data([7]))
        gate.open()
    }

    @Test func anImmediateHitIsReportedAsACacheHit() async throws {
        let recorder = EventRecorder()
        let observation = manager.addEventObserver(recorder.record)
        defer { observation.cancel() }
        cache.immediate = .hit(ImageCacheResult(image: Self.image, cacheType: .memory))
        _ = startRequest()
        #expect(recorder.labels() == ["started", "cacheHit(memory)", "finished(memory)"])
    }

    @Test func aTargetShowsAnImmediateHitBeforeSetImageReturns() async throws {
        cache.immediate = .hit(ImageCacheResult(image: Self.image, cacheType: .memory))
        let target = RecordingTarget()
        let placeholder = TestImages.still(width: 1, height: 1)
        let operation = target.setImage(with: url, placeholder: placeholder, manager: manager)
        #expect(target.shown.all == [placeholder.pixelSize, Self.image.pixelSize])
        #expect(operation != nil)
        #expect(target.loadingImageURL() == nil, "the finished load left no entry")
    }
}

/// A cache whose immediate answer is scripted; its suspending query misses. Records both.
final class ScriptedImmediateCache: ImageCache {
    private let answer = Locked(ImmediateCacheAnswer.unknown)
    /// The tiers of every immediate query, in order.
    let immediateQueries = CallRecorder<ImageCacheType>()
    /// The keys of every suspending query, in order.
    let queries = CallRecorder<String>()

    /// What ``queryImageImmediately(forKey:options:context:cacheType:)`` answers.
    var immediate: ImmediateCacheAnswer {
        get { answer.withLock { $0 } }
        set { answer.withLock { $0 = newValue } }
    }

    func queryImageImmediately(forKey key: String, options: WebImageOptions, context: WebImageContext, cacheType: ImageCacheType) -> ImmediateCacheAnswer {
        immediateQueries.record(cacheType)
        return immediate
    }

    func queryImage(forKey key: String, options: WebImageOptions, context: WebImageContext, cacheType: ImageCacheType) async -> ImageCacheResult? {
        queries.record(key)
        return nil
    }

    func store(_ image: WebImage?, data: Data?, forKey key: String, options: WebImageOptions, context: WebImageContext, cacheType: ImageCacheType) async throws {}
    func removeImage(forKey key: String, cacheType: ImageCacheType) async {}
    func containsImage(forKey key: String, cacheType: ImageCacheType) async -> ImageCacheType { .none }
    func clear(cacheType: ImageCacheType) async {}
}
