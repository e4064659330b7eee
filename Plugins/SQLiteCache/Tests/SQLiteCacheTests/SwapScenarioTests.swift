import Foundation
import SQLiteCache
import SwiftWebImage
import Testing
import WebImageTestSupport

/// The design card's "swapping in a third-party cache": the whole `ImageManager` flow (cache
/// query, loader, decode, transform, store, next launch) running on `SQLiteImageCache`, swapped
/// in with one line. The loader is TestSupport's `MockImageLoader` (no network).
///
/// Serialized: one test adds members to the shared managers for its duration.
@Suite(.serialized) struct SwapScenarioTests {
    let root = TemporaryDirectory()
    let image = TestImages.still(width: 20, height: 10, seed: 9)
    let pngData: Data

    init() throws {
        pngData = try CodersManager.shared.encode(image, as: .png)
    }

    func makeLoader() -> MockImageLoader {
        let loader = MockImageLoader(schemes: ["mock"])
        for name in ["a", "b", "t"] {
            loader.respond(to: URL(string: "mock://images/\(name).png")!, with: .image(image, data: pngData))
        }
        return loader
    }

    /// A manager built on the cache: miss, load, store; then a memory hit; then, on a new cache
    /// over the same database (the next launch), a disk hit decoded with the built-in coders.
    @Test func managerLoadsStoresAndFindsAgainAfterRelaunch() async throws {
        let url = URL(string: "mock://images/a.png")!
        let loader = makeLoader()
        let cache = SQLiteImageCache(directory: root.appending("cache"))
        let manager = ImageManager(cache: cache, loader: loader)

        let first = try await manager.loadImage(with: url, options: .waitStoreCache)
        #expect(first.cacheType == ImageCacheType.none)
        #expect(loader.requestCount == 1)
        #expect(cache.diskImageData(forKey: url.absoluteString) == pngData)

        let second = try await manager.loadImage(with: url)
        #expect(second.cacheType == .memory)
        #expect(loader.requestCount == 1)

        let relaunched = ImageManager(cache: SQLiteImageCache(directory: root.appending("cache")), loader: loader)
        let third = try await relaunched.loadImage(with: url)
        #expect(third.cacheType == .disk)
        #expect(third.image?.bitmap == image.bitmap, "PNG is lossless")
        #expect(loader.requestCount == 1)
    }

    /// The one line of the README: `CachesManager.shared.add(cache)`. The shared manager's
    /// stores then go to the SQLite cache (the highest member) and its queries find them there.
    @Test func oneLineSwapIntoTheSharedManagers() async throws {
        let cache = SQLiteImageCache(directory: root.appending("shared"))
        let loader = makeLoader()
        CachesManager.shared.add(cache)  // the swap
        LoadersManager.shared.add(loader)
        defer {
            CachesManager.shared.remove(cache)
            LoadersManager.shared.remove(loader)
        }
        let url = URL(string: "mock://images/b.png")!

        let first = try await ImageManager.shared.loadImage(with: url, options: .waitStoreCache)
        #expect(first.cacheType == ImageCacheType.none)
        #expect(await cache.containsImage(forKey: url.absoluteString, cacheType: .all) == .memory)
        #expect(await cache.containsImage(forKey: url.absoluteString, cacheType: .disk) == .disk)
        await cache.clear(cacheType: .memory)
        let second = try await ImageManager.shared.loadImage(with: url)
        #expect(second.cacheType == .disk)
        #expect(second.image?.pixelSize == image.pixelSize)
        #expect(loader.requestCount == 1)
    }

    /// One request can name the cache in its context; the manager's own cache is not used.
    @Test func contextCacheForOneRequest() async throws {
        let cache = SQLiteImageCache(directory: root.appending("context"))
        let managerCache = MockImageCache()
        let manager = ImageManager(cache: managerCache, loader: makeLoader())
        let url = URL(string: "mock://images/a.png")!
        let context = WebImageContext { $0.imageCache = cache }
        _ = try await manager.loadImage(with: url, options: .waitStoreCache, context: context)
        #expect(cache.diskImageData(forKey: url.absoluteString) == pngData)
        #expect(managerCache.storeCount == 0)
        #expect(try await manager.loadImage(with: url, context: context).cacheType == .memory)
    }

    /// With a transformer: the original goes to SQLite under its key, the transformed image
    /// (encoded by the cache, with the transformer's extended data) under the transformed key;
    /// a second transformer on the cached original costs no load.
    @Test func transformedRequestsStoreBothKeys() async throws {
        let cache = SQLiteImageCache(directory: root.appending("transform"), config: SQLiteImageCache.Config(shouldCacheImagesInMemory: false))
        let loader = makeLoader()
        let manager = ImageManager(cache: cache, loader: loader)
        let url = URL(string: "mock://images/t.png")!
        let first = MockImageTransformer(key: "First")
        let result = try await manager.loadImage(with: url, options: .waitStoreCache, context: WebImageContext { $0.imageTransformer = first })
        #expect(result.image?.metadata.contains(.transformed) == true)
        let transformedKey = result.cacheKey
        #expect(transformedKey != url.absoluteString)
        #expect(cache.diskImageData(forKey: url.absoluteString) == pngData)
        let hit = try #require(await cache.queryImage(forKey: transformedKey))
        #expect(hit.image?.extendedData == Data("+First".utf8))

        let second = MockImageTransformer(key: "Second")
        let again = try await manager.loadImage(with: url, options: .waitStoreCache, context: WebImageContext { $0.imageTransformer = second })
        #expect(again.cacheType == .disk)
        #expect(loader.requestCount == 1, "the original came from SQLite")
        #expect(second.calls.count == 1)
    }
}
