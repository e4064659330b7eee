import Foundation
import Testing
import WebImageTestSupport
import WebImageCaches
import WebImageCore

/// A disk hit decoded smaller than its data (a thumbnail size or a scale-down budget in the
/// query) is not written to memory under the queried key: a later plain query of that key must
/// get the full-size image, never the thumbnail of an earlier query.
@Suite struct ThumbnailPromotionTests {
    let root = TestDirectory()

    init() {
        RawBitmapCoder.registerFormat()
    }

    func makeCache() -> WebImageCache {
        WebImageCache(namespace: "thumbnails", directory: root.url, coder: RawBitmapCoder())
    }

    static let image = TestImages.still(width: 12, height: 8, seed: 5)
    static var data: Data { try! RawBitmapCoder().encode(image, as: .rawBitmap) }
    static let fullSize = PixelSize(width: 12, height: 8)

    /// The ways a query asks for a smaller decode.
    enum Shrink: String, CaseIterable, Sendable {
        case thumbnail, scaleDown, decodeOptionsThumbnail

        var options: WebImageOptions { self == .scaleDown ? .scaleDownLargeImages : [] }
        var context: WebImageContext {
            var context = WebImageContext()
            switch self {
            case .thumbnail: context.imageThumbnailPixelSize = PixelSize(width: 3, height: 3)
            case .scaleDown: context.imageScaleDownLimitBytes = 6 * 4 * 4  // 24 pixels: 6x4
            case .decodeOptionsThumbnail:
                var decodeOptions = ImageDecodeOptions()
                decodeOptions.thumbnailPixelSize = PixelSize(width: 3, height: 3)
                context.imageDecodeOptions = decodeOptions
            }
            return context
        }
    }

    @Test(arguments: Shrink.allCases, [WebImageOptions(), .queryDiskDataSync])
    func aSmallerDecodeIsNotPromotedUnderTheQueriedKey(_ shrink: Shrink, _ sync: WebImageOptions) async throws {
        let cache = makeCache()
        try await cache.store(Self.image, data: Self.data, forKey: "k", cacheType: .disk)

        let small = try #require(await cache.queryImage(forKey: "k", options: shrink.options.union(sync), context: shrink.context, cacheType: .all))
        #expect(small.cacheType == .disk)
        let smallSize = try #require(small.image?.pixelSize)
        #expect(smallSize.width < Self.fullSize.width, "\(shrink): the query decodes smaller (\(smallSize))")
        #expect(cache.imageFromMemoryCache(forKey: "k") == nil, "\(shrink): the smaller image is not in memory under the full-size key")

        let plain = try #require(await cache.queryImage(forKey: "k", options: sync, context: WebImageContext(), cacheType: .all))
        #expect(plain.image?.pixelSize == Self.fullSize, "\(shrink): a plain query gets the full size, not \(String(describing: plain.image?.pixelSize))")
        #expect(cache.imageFromMemoryCache(forKey: "k")?.pixelSize == Self.fullSize, "the full-size decode is promoted")
    }

    @Test(arguments: Shrink.allCases)
    func theSynchronousDiskReadDoesNotPromoteASmallerDecode(_ shrink: Shrink) throws {
        let cache = makeCache()
        try cache.diskStorage.setData(Self.data, forKey: "k", extendedData: nil)
        let small = try #require(cache.imageFromDiskCache(forKey: "k", options: shrink.options, context: shrink.context))
        #expect(small.pixelSize.width < Self.fullSize.width)
        #expect(cache.imageFromMemoryCache(forKey: "k") == nil)
        #expect(cache.imageFromCache(forKey: "k")?.pixelSize == Self.fullSize)
    }

    @Test func aThumbnailQueryOfDataAlreadySmallEnoughIsPromoted() async throws {
        // The decode is the full image: nothing smaller to keep out of memory.
        let cache = makeCache()
        try await cache.store(Self.image, data: Self.data, forKey: "k", cacheType: .disk)
        let context = WebImageContext { $0.imageThumbnailPixelSize = PixelSize(width: 100, height: 100) }
        let hit = try #require(await cache.queryImage(forKey: "k", options: [], context: context, cacheType: .all))
        #expect(hit.image?.pixelSize == Self.fullSize)
        #expect(cache.imageFromMemoryCache(forKey: "k")?.pixelSize == Self.fullSize)
    }

    /// A first-frame query of an animation gets a still, which must not answer a later query
    /// that wants the animation.
    @Test(arguments: [WebImageOptions(), .queryDiskDataSync])
    func aFirstFrameDecodeIsNotPromoted(_ sync: WebImageOptions) async throws {
        let cache = makeCache()
        let animation = TestImages.animated(frames: 3)
        try await cache.store(animation, data: try RawBitmapCoder().encode(animation, as: .rawBitmap), forKey: "anim", cacheType: .disk)
        let first = try #require(await cache.queryImage(forKey: "anim", options: sync.union(.decodeFirstFrameOnly), context: WebImageContext(), cacheType: .all))
        #expect(first.image?.frameCount == 1)
        #expect(cache.imageFromMemoryCache(forKey: "anim") == nil)
        let whole = try #require(await cache.queryImage(forKey: "anim", options: sync, context: WebImageContext(), cacheType: .all))
        #expect(whole.image?.frameCount == 3)
    }

    @Test func theDecodeStageSaysWhichDecodesMayBePromoted() throws {
        let thumbnailStage = ImageDecodeRequest(key: "k", context: WebImageContext { $0.imageThumbnailPixelSize = PixelSize(width: 3, height: 3) }, defaultCoder: RawBitmapCoder())
        let thumbnail = try #require(thumbnailStage.decodeCachedData(Self.data).image)
        #expect(thumbnail.metadata.contains(.thumbnail))
        #expect(!thumbnailStage.mayPromote(thumbnail))
        let fullStage = ImageDecodeRequest(key: "k", defaultCoder: RawBitmapCoder())
        let full = try #require(fullStage.decodeCachedData(Self.data).image)
        #expect(fullStage.mayPromote(full))
        #expect(!ImageDecodeRequest(key: "k", options: [.decodeFirstFrameOnly], defaultCoder: RawBitmapCoder()).mayPromote(full), "a first-frame decode is never promoted")
    }
}
