import Foundation
import SwiftWebImage
import Testing
import WebImageTestSupport

/// SDWebImage's thumbnail cache behaviours (issue 35; its tests 17, 18 and 19), on the real stack
/// (manager + WebImageCache + Downloader against a loopback server).
// The limit catches a hang, not a pace: a full parallel `swift test` on 2 cores may keep these
// decodes queued behind every other test's for a minute and more (issue 38).
@Suite(.timeLimit(.minutes(5)))
struct ThumbnailCacheEntryTests {
    static let full = WebImage(bitmap: TestImages.gradient(width: 500, height: 500, seed: 4))
    static let thumbnail = PixelSize(width: 100, height: 100)

    /// test17: a cache query of the full-size key with a thumbnail size decodes a thumbnail, which
    /// goes into memory under the thumbnail's key; the full-size key gets nothing in memory.
    @Test func aThumbnailQueryWritesTheThumbnailKeyNotTheFullSizeKey() async throws {
        let stack = try LoadingStack(routes: [:])
        let fullKey = "kTestRectangle"
        try await stack.cache.store(nil, data: LoadingStack.png(Self.full), forKey: fullKey, cacheType: .disk)
        let thumbnailKey = ImageManager.thumbnailedKey(fullKey, size: Self.thumbnail, preserveAspectRatio: true)
        let result = try #require(await stack.cache.queryImage(forKey: fullKey, options: [], context: WebImageContext { $0.imageThumbnailPixelSize = Self.thumbnail }, cacheType: .all))
        #expect(result.image?.pixelSize == Self.thumbnail && result.cacheType == .disk)
        #expect(stack.cache.memoryCache.image(forKey: fullKey) == nil, "the full-size key holds no thumbnail")
        #expect(stack.cache.memoryCache.image(forKey: thumbnailKey)?.pixelSize == Self.thumbnail)
        #expect(await stack.cache.queryImage(forKey: thumbnailKey, options: [], context: WebImageContext(), cacheType: .disk) == nil, "nothing written to disk by a query")
    }

    /// test18: a thumbnail load served from the full-size disk entry: the thumbnail, no data, from
    /// disk, then in memory and on disk under the thumbnail key.
    @Test func aThumbnailLoadFromTheFullSizeCacheStoresUnderTheThumbnailKey() async throws {
        let stack = try LoadingStack(routes: ["/500.png": LoadingStack.route(LoadingStack.png(Self.full))])
        let url = stack.url("/500.png")
        try await stack.cache.store(nil, data: LoadingStack.png(Self.full), forKey: url.absoluteString, cacheType: .disk)
        let result = try await stack.load("/500.png", options: .waitStoreCache, context: WebImageContext { $0.imageThumbnailPixelSize = Self.thumbnail })
        #expect(result.image?.pixelSize == Self.thumbnail)
        #expect(result.data == nil, "a thumbnail's data is not the full-size data (SDWebImage: nil)")
        #expect(result.cacheType == .disk)
        let thumbnailKey = try #require(stack.manager.cacheKey(for: url, context: WebImageContext { $0.imageThumbnailPixelSize = Self.thumbnail }))
        #expect(stack.cache.memoryCache.image(forKey: thumbnailKey)?.pixelSize == Self.thumbnail)
        await stack.cache.clear(cacheType: .memory)
        #expect(await stack.cache.queryImage(forKey: thumbnailKey, options: [], context: WebImageContext(), cacheType: .disk)?.image?.pixelSize == Self.thumbnail)
        #expect(stack.downloads("/500.png") == 0)
    }

    /// test19: thumbnails of different sizes of one URL, downloaded: each completes with its own
    /// size, no data, from the network, and is in memory under its own key.
    @Test func differentThumbnailSizesOfOneURLEachGetTheirSize() async throws {
        // SDWebImage's test asks 490...499 of a 501x501 PNG; the same shape at a fifth of the
        // size keeps the ten decodes cheap in a debug build.
        let stack = try LoadingStack(routes: ["/101.png": LoadingStack.route(LoadingStack.png(WebImage(bitmap: TestImages.gradient(width: 101, height: 101, seed: 5))))])
        let url = stack.url("/101.png")
        try await withThrowingTaskGroup(of: (Int, ImageLoadResult).self) { group in
            for side in 90..<100 {
                group.addTask {
                    let context = WebImageContext { $0.imageThumbnailPixelSize = PixelSize(width: side, height: side) }
                    return (side, try await stack.manager.loadImage(with: url, context: context))
                }
            }
            for try await (side, result) in group {
                let size = PixelSize(width: side, height: side)
                #expect(result.image?.pixelSize == size)
                #expect(result.data == nil && result.cacheType == .none)
                let key = try #require(stack.manager.cacheKey(for: url, context: WebImageContext { $0.imageThumbnailPixelSize = size }))
                #expect(stack.cache.memoryCache.image(forKey: key)?.pixelSize == size, "\(side): in memory under its key")
            }
        }
    }
}
