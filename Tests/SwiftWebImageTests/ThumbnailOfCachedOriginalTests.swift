import Foundation
import SwiftWebImage
import Testing
import WebImageTestSupport

/// Thumbnails, scale-downs and transforms of an original the caches hold: made from the cached
/// original with no download, stored under their own key, and never written over the
/// full-size entry. The whole stack: manager, memory + disk cache, downloader, loopback server.
@Suite(.timeLimit(.minutes(1)), .whenThePoolResponds)
struct ThumbnailOfCachedOriginalTests {
    static let original = WebImage(bitmap: TestImages.gradient(width: 16, height: 12))
    static let fullSize = PixelSize(width: 16, height: 12)
    static let thumbnail = WebImageContext { $0.imageThumbnailPixelSize = PixelSize(width: 4, height: 4) }
    /// 48 pixels of budget: 16x12 scales down to 8x6.
    static let scaleDown = WebImageContext { $0.imageScaleDownLimitBytes = 48 * 4 }

    let stack: LoadingStack

    init() throws {
        stack = try LoadingStack(routes: ["/p/a.png": LoadingStack.route(LoadingStack.png(Self.original))])
    }

    /// Where the original is when the derived request comes.
    enum Tier: String, CaseIterable, Sendable { case memory, disk }

    /// Loads the original, then leaves it in memory and on disk, or on disk only.
    func cacheOriginal(in tier: Tier) async throws {
        let first = try await stack.load("/p/a.png")
        #expect(first.image?.pixelSize == Self.fullSize)
        #expect(stack.downloads("/p/a.png") == 1)
        if tier == .disk { await stack.cache.clear(cacheType: .memory) }
    }

    // MARK: A smaller decode never overwrites the full-size entry (point 1)

    @Test func aPlainFetchAfterAScaleDownFetchGetsTheFullSize() async throws {
        let scaled = try await stack.load("/p/a.png", options: .scaleDownLargeImages, context: Self.scaleDown)
        #expect(scaled.image?.pixelSize == PixelSize(width: 8, height: 6))
        let plain = try await stack.load("/p/a.png")
        #expect(plain.image?.pixelSize == Self.fullSize, "the plain request got \(String(describing: plain.image?.pixelSize))")
        #expect(stack.downloads("/p/a.png") == 1, "the original of the scale-down fetch was cached")
    }

    @Test(arguments: Tier.allCases)
    func aPlainFetchAfterAThumbnailOfTheCachedOriginalGetsTheFullSize(_ tier: Tier) async throws {
        try await cacheOriginal(in: tier)
        _ = try await stack.load("/p/a.png", context: Self.thumbnail)
        _ = try await stack.load("/p/a.png", options: .scaleDownLargeImages, context: Self.scaleDown)
        if let inMemory = stack.cache.imageFromMemoryCache(forKey: stack.url("/p/a.png").absoluteString) {
            #expect(inMemory.pixelSize == Self.fullSize, "the full-size memory entry holds \(inMemory.pixelSize)")
        }
        let plain = try await stack.load("/p/a.png")
        #expect(plain.image?.pixelSize == Self.fullSize)
        #expect(stack.downloads("/p/a.png") == 1)
    }

    // MARK: A thumbnail of a cached original costs no download (point 2)

    @Test(arguments: Tier.allCases)
    func aThumbnailOfACachedOriginalCostsNoDownload(_ tier: Tier) async throws {
        try await cacheOriginal(in: tier)
        let result = try await stack.load("/p/a.png", context: Self.thumbnail)
        #expect(stack.downloads("/p/a.png") == 1, "the thumbnail was made from the cached original")
        let image = try #require(result.image)
        #expect(image.pixelSize == PixelSize(width: 4, height: 3))
        #expect(image.metadata.contains(.thumbnail))
        #expect(result.cacheType == (tier == .memory ? .memory : .disk))
        // Stored under its own key: the next thumbnail request is a memory hit of it.
        let again = try await stack.load("/p/a.png", context: Self.thumbnail)
        #expect(again.cacheType == .memory)
        #expect(again.image?.pixelSize == PixelSize(width: 4, height: 3))
        #expect(again.cacheKey == result.cacheKey)
        #expect(stack.downloads("/p/a.png") == 1)
    }

    @Test(arguments: Tier.allCases)
    func aScaleDownOfACachedOriginalCostsNoDownload(_ tier: Tier) async throws {
        try await cacheOriginal(in: tier)
        let result = try await stack.load("/p/a.png", options: .scaleDownLargeImages, context: Self.scaleDown)
        #expect(stack.downloads("/p/a.png") == 1)
        #expect(result.image?.pixelSize == PixelSize(width: 8, height: 6))
        #expect(result.cacheType == (tier == .memory ? .memory : .disk))
    }

    @Test(arguments: Tier.allCases)
    func aTransformedThumbnailOfACachedOriginalCostsNoDownload(_ tier: Tier) async throws {
        try await cacheOriginal(in: tier)
        var context = Self.thumbnail
        context.imageTransformer = .flip(horizontal: true)
        let result = try await stack.load("/p/a.png", context: context)
        #expect(stack.downloads("/p/a.png") == 1)
        let image = try #require(result.image)
        #expect(image.pixelSize == PixelSize(width: 4, height: 3))
        #expect(image.metadata.contains(.transformed))
        // The flip of the thumbnail: compare with the plain thumbnail, mirrored.
        let plainThumbnail = try #require(try await stack.load("/p/a.png", context: Self.thumbnail).image)
        #expect(image.bitmap[0, 1] == plainThumbnail.bitmap[3, 1])
        #expect(image.bitmap[3, 2] == plainThumbnail.bitmap[0, 2])
        let again = try await stack.load("/p/a.png", context: context)
        #expect(again.cacheType == .memory)
        #expect(stack.downloads("/p/a.png") == 1)
    }

    @Test(arguments: Tier.allCases)
    func aThumbnailOfACachedAnimationKeepsItsFrames(_ tier: Tier) async throws {
        let animation = TestImages.animated(frames: 3, width: 8, height: 8)
        let gif = try GIFCoder().encode(animation, as: .gif)
        stack.server.route("/p/anim.gif", LoadingStack.route(gif, contentType: "image/gif"))
        let first = try await stack.load("/p/anim.gif")
        #expect(first.image?.frameCount == 3)
        if tier == .disk { await stack.cache.clear(cacheType: .memory) }

        let result = try await stack.load("/p/anim.gif", context: Self.thumbnail)
        #expect(stack.downloads("/p/anim.gif") == 1)
        let image = try #require(result.image)
        #expect(image.pixelSize == PixelSize(width: 4, height: 4))
        #expect(image.frameCount == 3)
        #expect(image.frameDurations == first.image?.frameDurations)
        #expect(image.loopCount == first.image?.loopCount)
        let frames = try image.allFrames()
        #expect(frames[0].bitmap[1, 1] != frames[1].bitmap[1, 1], "the frames stay distinct")
    }

    @Test func aThumbnailFetchCachesTheOriginalForTheOtherSizes() async throws {
        let small = try await stack.load("/p/a.png", context: Self.thumbnail)
        #expect(small.image?.pixelSize == PixelSize(width: 4, height: 3))
        #expect(stack.downloads("/p/a.png") == 1)

        let plain = try await stack.load("/p/a.png")
        #expect(plain.image?.pixelSize == Self.fullSize)
        let larger = try await stack.load("/p/a.png", context: WebImageContext { $0.imageThumbnailPixelSize = PixelSize(width: 8, height: 8) })
        #expect(larger.image?.pixelSize == PixelSize(width: 8, height: 6))
        #expect(stack.downloads("/p/a.png") == 1, "the other sizes were made from the cached original")
    }

    @Test func aFromCacheOnlyThumbnailIsServedFromTheOriginal() async throws {
        try await cacheOriginal(in: .disk)
        let result = try await stack.load("/p/a.png", options: .fromCacheOnly, context: Self.thumbnail)
        #expect(result.image?.pixelSize == PixelSize(width: 4, height: 3))
        #expect(stack.downloads("/p/a.png") == 1)
    }
}
