import Foundation
import Testing
import WebImageTestSupport
import WebImageCaches
import WebImageCore

/// The completion-handler `store` (SDWebImage's `storeImage:...completion:`): the memory tier
/// reflects the store as soon as the call returns; the disk write follows, and the completion
/// says when it is done. For ``WebImageCache``, for a ``CachesManager`` of them (per store
/// policy), and for a third-party cache that only has the protocol's default.
@Suite struct CompletionStoreTests {
    let root = TestDirectory()

    init() {
        RawBitmapCoder.registerFormat()
    }

    static let image = TestImages.still(width: 5, height: 4, seed: 3)
    static var data: Data { try! RawBitmapCoder().encode(image, as: .rawBitmap) }

    func makeCache(_ name: String = "test") -> WebImageCache {
        WebImageCache(namespace: name, directory: root.url, coder: RawBitmapCoder())
    }

    /// Calls the completion-handler `store`, runs `atReturn` right after it returns (before
    /// anything is awaited), then waits for the completion.
    /// - Returns: What `atReturn` found, and the completion's error.
    func store<Found: Sendable>(
        in cache: any ImageCache,
        forKey key: String,
        cacheType: ImageCacheType = .all,
        atReturn: @Sendable () -> Found
    ) async -> (found: Found, error: (any Error)?) {
        let completions = AsyncStream<(any Error)?>.makeStream()
        cache.store(Self.image, data: Self.data, forKey: key, cacheType: cacheType) { error in
            completions.continuation.yield(error)
            completions.continuation.finish()
        }
        let found = atReturn()
        var iterator = completions.stream.makeAsyncIterator()
        let error = await iterator.next() ?? nil
        return (found, error)
    }

    /// The memory tier is written before `store(...completion:)` returns; the disk when the
    /// completion runs. Many keys, so that a store running in a task would miss at least once.
    @Test func memoryTierReflectsTheStoreWhenTheCallReturns() async throws {
        let cache = makeCache()
        for index in 0..<50 {
            let key = "key-\(index)"
            let (inMemory, error) = await store(in: cache, forKey: key) { cache.imageFromMemoryCache(forKey: key) != nil }
            #expect(inMemory, "store #\(index): the memory tier must hold the image when the call returns")
            #expect(error == nil)
            #expect(cache.diskImageData(forKey: key) == Self.data, "the disk write is done by the completion")
        }
    }

    /// `containsImage` right after the completion-handler store answers from memory (it used
    /// to answer `.disk` or `.none` in most tries: the memory check ran before the store's
    /// task had written memory, the disk check after it had written the disk).
    @Test func containsRightAfterAStoreAnswersMemory() async throws {
        let cache = makeCache()
        for index in 0..<10 {
            let key = "contains-\(index)"
            let completions = AsyncStream<(any Error)?>.makeStream()
            cache.store(Self.image, data: Self.data, forKey: key) { completions.continuation.yield($0) }
            #expect(await cache.containsImage(forKey: key, cacheType: .all) == .memory, "try #\(index)")
            var iterator = completions.stream.makeAsyncIterator()
            _ = await iterator.next()
        }
    }

    /// Data stored for memory alone is decoded in the store's task (a decode is no work for the
    /// caller's thread); the completion comes after it is in memory.
    @Test func dataAloneForMemoryIsInMemoryByTheCompletion() async throws {
        let cache = makeCache()
        let completions = AsyncStream<(any Error)?>.makeStream()
        cache.store(nil, data: Self.data, forKey: "k", cacheType: .memory) { completions.continuation.yield($0) }
        var iterator = completions.stream.makeAsyncIterator()
        let error = await iterator.next() ?? nil
        #expect(error == nil)
        #expect(cache.imageFromMemoryCache(forKey: "k")?.pixelSize == Self.image.pixelSize)
        #expect(!cache.diskImageDataExists(forKey: "k"))
    }

    /// Errors still reach the completion: neither image nor data, and a failing disk (after
    /// the memory tier took the image).
    @Test func errorsReachTheCompletion() async throws {
        let cache = makeCache()
        let completions = AsyncStream<(any Error)?>.makeStream()
        cache.store(nil, data: nil, forKey: "none") { completions.continuation.yield($0) }
        var iterator = completions.stream.makeAsyncIterator()
        let error = try #require(await iterator.next() ?? nil) as? WebImageError
        #expect(error?.code == .invalidArgument)

        try Data("a file".utf8).writeWithoutSync(to: root.url.appendingPathComponent("file"))
        let broken = WebImageCache(namespace: "test", directory: root.url.appendingPathComponent("file"), coder: RawBitmapCoder())
        let (inMemory, diskError) = await store(in: broken, forKey: "k") { broken.imageFromMemoryCache(forKey: "k") != nil }
        #expect(inMemory)
        let failure = try #require(diskError as? WebImageError)
        #expect(failure.code == .cacheFailure && failure.message.contains("stored in memory"), "\(failure.message)")
    }

    /// A ``CachesManager`` starts its members' stores the way its store policy says, so the
    /// members that take the store first have it in memory when the call returns.
    @Test(arguments: CachesManager.Policy.allCases)
    func cachesManagerForwardsTheImmediateStore(_ policy: CachesManager.Policy) async throws {
        let lowest = makeCache("lowest")
        let highest = makeCache("highest")
        let manager = CachesManager([lowest, highest])
        manager.storePolicy = policy
        let (atReturn, error) = await store(in: manager, forKey: "k") {
            (lowest.imageFromMemoryCache(forKey: "k") != nil, highest.imageFromMemoryCache(forKey: "k") != nil)
        }
        #expect(error == nil)
        let atCompletion = (lowest.imageFromMemoryCache(forKey: "k") != nil, highest.imageFromMemoryCache(forKey: "k") != nil)
        switch policy {
        case .highestOnly:
            #expect(atReturn == (false, true) && atCompletion == (false, true))
        case .lowestOnly:
            #expect(atReturn == (true, false) && atCompletion == (true, false))
        case .concurrent:
            #expect(atReturn == (true, true), "every member is started at once")
        case .serial:
            // One member after the other, highest first: the next starts when the one before
            // has finished (SDWebImage's serial chain).
            #expect(atReturn.1, "the first member is started at once")
            #expect(atCompletion == (true, true))
        }
        #expect(lowest.diskImageDataExists(forKey: "k") == atCompletion.0)
        #expect(highest.diskImageDataExists(forKey: "k") == atCompletion.1)
    }

    /// Every member's error reaches the completion, after all of them finished.
    @Test func cachesManagerReportsAMembersError() async throws {
        let failing = MockImageCache(name: "failing")
        failing.storeError = WebImageError(.cacheFailure, "mock store refused")
        let good = makeCache()
        let manager = CachesManager([good, failing])
        manager.storePolicy = .concurrent
        let (_, error) = await store(in: manager, forKey: "k") { () }
        #expect((error as? WebImageError)?.message == "mock store refused")
        #expect(good.diskImageDataExists(forKey: "k"))
    }

    /// A ``MemoryCache`` holds the entry when the call returns, alone or as the memory member
    /// of a layered ``CachesManager`` (the Redis plug-in's setup: concurrent store); its
    /// errors reach the completion.
    @Test func memoryCacheStoresBeforeTheCallReturns() async throws {
        let memory = MemoryCache()
        let (alone, error) = await store(in: memory, forKey: "alone") { memory.image(forKey: "alone") != nil }
        #expect(alone && error == nil)

        let layered = CachesManager([MockImageCache(name: "remote"), memory])
        layered.storePolicy = .concurrent
        let (inLayer, layerError) = await store(in: layered, forKey: "layered") { memory.image(forKey: "layered") != nil }
        #expect(inLayer && layerError == nil)

        let tiny = MemoryCache(costLimit: 10)
        let (_, tooLarge) = await store(in: tiny, forKey: "k") { () }
        #expect((tooLarge as? WebImageError)?.code == .cacheFailure)
    }

    /// A third-party cache with only the protocol's requirements gets the default: the whole
    /// store runs in the task, and the completion reports it.
    @Test func thirdPartyCacheGetsTheDefault() async throws {
        let mock = MockImageCache(name: "third party")
        let (_, error) = await store(in: mock, forKey: "k") { () }
        #expect(error == nil)
        #expect(mock.calls.all == [.store(key: "k", cacheType: .all, hasImage: true, hasData: true)])
        #expect(mock.keys(in: .all) == ["k"])
    }
}
