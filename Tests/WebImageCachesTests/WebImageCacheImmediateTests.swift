import Foundation
import Testing
import WebImageTestSupport
import WebImageCaches
import WebImageCore

/// A target shows what ``WebImageCache`` can answer at once before `setImage` returns
/// (SDWebImage's synchronous memory hit; `queryMemoryDataSync`, `queryDiskDataSync`), and
/// waits for the rest.
@Suite struct WebImageCacheImmediateTests {
    let root = TestDirectory()
    let cache: WebImageCache
    /// Held shut: a request that reaches the loader never answers, so what a target shows came
    /// from the cache.
    let gate = AsyncGate()
    let manager: ImageManager
    let url = URL(string: "https://example.com/immediate.png")!
    let placeholder = TestImages.still(width: 1, height: 1)
    static let image = TestImages.still(width: 9, height: 7, seed: 11)
    static var data: Data { try! RawBitmapCoder().encode(image, as: .rawBitmap) }

    init() {
        RawBitmapCoder.registerFormat()
        cache = WebImageCache(namespace: "immediate", directory: root.url, config: WebImageCache.Config(), coder: RawBitmapCoder())
        manager = ImageManager(cache: cache, loader: MockImageLoader(gate: gate))
    }

    /// Calls `setImage` and returns what the target showed and the completion got by the time
    /// it returned.
    func setImage(_ target: ShowingTarget, options: WebImageOptions) -> (shown: [PixelSize?], completed: [Result<ImageLoadResult, WebImageError>], operation: ImageOperation?) {
        let completions = CallRecorder<Result<ImageLoadResult, WebImageError>>()
        let operation = target.setImage(with: url, placeholder: placeholder, options: options, manager: manager, completed: { completions.record($0) })
        return (target.shown.all, completions.all, operation)
    }

    @Test func aMemoryHitIsShownBeforeSetImageReturns() async throws {
        try await cache.store(Self.image, data: Self.data, forKey: url.absoluteString)
        let target = ShowingTarget()
        let (shown, completed, _) = setImage(target, options: [])
        #expect(shown == [placeholder.pixelSize, Self.image.pixelSize])
        #expect(completed.count == 1)
        #expect(try completed.first?.get().cacheType == .memory)
        #expect(target.loadingImageURL() == nil, "nothing is left running")
    }

    @Test func queryMemoryDataSyncBringsTheDataBeforeSetImageReturns() async throws {
        try await cache.store(Self.image, data: Self.data, forKey: url.absoluteString)
        let (_, completed, _) = setImage(ShowingTarget(), options: [.queryMemoryData, .queryMemoryDataSync])
        let result = try #require(try completed.first?.get())
        #expect(result.cacheType == .memory)
        #expect(result.data == Self.data)
    }

    @Test func queryMemoryDataWithoutSyncWaits() async throws {
        try await cache.store(Self.image, data: Self.data, forKey: url.absoluteString)
        let target = ShowingTarget()
        let (shown, completed, _) = setImage(target, options: [.queryMemoryData])
        #expect(shown == [placeholder.pixelSize])
        #expect(completed.isEmpty)
        while target.shown.count < 2 { await Task.yield() }
        #expect(target.shown.all.last == Self.image.pixelSize)
    }

    @Test func queryDiskDataSyncDecodesTheDiskHitBeforeSetImageReturns() async throws {
        try await cache.store(Self.image, data: Self.data, forKey: url.absoluteString, cacheType: .disk)
        let (shown, completed, _) = setImage(ShowingTarget(), options: [.queryDiskDataSync])
        #expect(shown == [placeholder.pixelSize, Self.image.pixelSize])
        #expect(try completed.first?.get().cacheType == .disk)
    }

    @Test func aDiskHitWithoutSyncWaits() async throws {
        try await cache.store(Self.image, data: Self.data, forKey: url.absoluteString, cacheType: .disk)
        let target = ShowingTarget()
        let (shown, completed, _) = setImage(target, options: [])
        #expect(shown == [placeholder.pixelSize])
        #expect(completed.isEmpty)
        while target.shown.count < 2 { await Task.yield() }
        #expect(target.shown.all.last == Self.image.pixelSize)
    }

    @Test func aMissGoesToTheLoader() async throws {
        let target = ShowingTarget()
        let (shown, completed, operation) = setImage(target, options: [.queryDiskDataSync])
        #expect(shown == [placeholder.pixelSize])
        #expect(completed.isEmpty)
        #expect(target.loadingImageURL() == url)
        operation?.cancel()
        gate.open()
    }
}

/// ``WebImageCache/queryImageImmediately(forKey:options:context:cacheType:)`` and
/// ``MemoryCache``'s: the answer the suspending query gives, or `.unknown` exactly when that
/// query would wait for the disk.
@Suite struct ImmediateQueryAnswerTests {
    enum Placement: CaseIterable, Sendable { case memoryAndDisk, diskOnly, nowhere }

    static let options: [WebImageOptions] = [[], [.queryMemoryData], [.queryMemoryData, .queryMemoryDataSync], [.queryDiskDataSync], [.queryDiskDataSync, .avoidDecodeImage]]
    static let image = TestImages.still(width: 9, height: 7, seed: 11)
    static var data: Data { try! RawBitmapCoder().encode(image, as: .rawBitmap) }

    init() {
        RawBitmapCoder.registerFormat()
    }

    /// A fresh cache with the entry placed.
    func makeCache(_ placement: Placement, in root: TestDirectory) async throws -> WebImageCache {
        let cache = WebImageCache(namespace: "answers", directory: root.url, config: WebImageCache.Config(), coder: RawBitmapCoder())
        switch placement {
        case .memoryAndDisk: try await cache.store(Self.image, data: Self.data, forKey: "k")
        case .diskOnly: try await cache.store(Self.image, data: Self.data, forKey: "k", cacheType: .disk)
        case .nowhere: break
        }
        return cache
    }

    /// A hit, described by what a caller sees.
    static func describe(_ hit: ImageCacheResult?) -> String {
        guard let hit else { return "miss" }
        return "\(hit.cacheType) image:\(hit.image.map { "\($0.pixelSize)" } ?? "nil") data:\(hit.data?.count ?? -1)"
    }

    @Test(arguments: Placement.allCases, [ImageCacheType.all, .memory, .disk])
    func answersAsTheQueryWouldOrUnknown(_ placement: Placement, _ cacheType: ImageCacheType) async throws {
        for options in Self.options {
            // Each on its own cache: a disk hit is promoted to memory, which changes the next query.
            let immediateRoot = TestDirectory(), queryRoot = TestDirectory()
            let immediate = try await makeCache(placement, in: immediateRoot)
            let queried = try await makeCache(placement, in: queryRoot)
            let answer = immediate.queryImageImmediately(forKey: "k", options: options, context: WebImageContext(), cacheType: cacheType)
            let expected = Self.describe(await queried.queryImage(forKey: "k", options: options, context: WebImageContext(), cacheType: cacheType))
            let inMemory = placement == .memoryAndDisk && cacheType.includesMemory
            let waits = cacheType.includesDisk && (inMemory
                ? options.contains(.queryMemoryData) && !options.contains(.queryMemoryDataSync)
                : !options.contains(.queryDiskDataSync))
            switch answer {
            case .hit(let hit): #expect(!waits && Self.describe(hit) == expected, "\(placement) \(cacheType) \(options)")
            case .miss: #expect(!waits && expected == "miss", "\(placement) \(cacheType) \(options)")
            case .unknown: #expect(waits, "\(placement) \(cacheType) \(options)")
            }
        }
    }

    @Test func aMemoryCacheAlwaysAnswers() async throws {
        let cache = MemoryCache()
        try await cache.store(TestImages.animated(frames: 2), data: Data([1]), forKey: "k", cacheType: .memory)
        guard case .hit(let hit) = cache.queryImageImmediately(forKey: "k", options: [.decodeFirstFrameOnly], context: WebImageContext(), cacheType: .all) else {
            Issue.record("expected a hit"); return
        }
        #expect(hit.cacheType == .memory)
        #expect(hit.image?.isAnimated == false)
        #expect(hit.data == Data([1]))
        guard case .miss = cache.queryImageImmediately(forKey: "k", options: [], context: WebImageContext(), cacheType: .disk) else {
            Issue.record("the disk tier is none of a memory cache's"); return
        }
        guard case .miss = cache.queryImageImmediately(forKey: "other", options: [], context: WebImageContext(), cacheType: .all) else {
            Issue.record("expected a miss"); return
        }
    }
}

/// A target that records the sizes it was asked to show.
final class ShowingTarget: ImageTarget {
    let shown = CallRecorder<PixelSize?>()
    func display(_ image: WebImage?) { shown.record(image?.pixelSize) }
}
