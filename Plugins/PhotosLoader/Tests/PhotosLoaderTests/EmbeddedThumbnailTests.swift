import Foundation
import PhotosLoader
import SwiftWebImage
import Testing
import WebImageTestSupport

/// The fast path: thumbnail requests served from the EXIF thumbnail when it is large enough,
/// else DCT-scaled decoding. The photo and its embedded thumbnail have different colors, so the
/// pixels say which one was decoded; the loader's counters and byte count say the same.
@Suite(.onOwnThreads) struct EmbeddedThumbnailTests {
    /// The case: a 4000x3000 photo (red) with a 160x120 EXIF thumbnail (blue).
    static let largeThumbnail = Array(try! Fixtures.jpeg(width: 160, height: 120, color: Fixtures.blue))
    static let large = try! Fixtures.exifJPEG(width: 4000, height: 3000, color: Fixtures.red, exif: EXIFBuilder(
        orientation: 1, dateTimeOriginal: "2024:05:01 12:00:00", thumbnail: largeThumbnail))

    let folder: TemporaryLibrary
    let library: PhotoLibrary
    let loader: PhotosLoader
    let asset: PhotoAsset

    init() async throws {
        folder = try TemporaryLibrary()
        try folder.write(Self.large, to: "camera/IMG_0001.jpg")
        library = folder.library()
        try await library.rescan()
        loader = PhotosLoader(library: library)
        asset = try #require(library.asset(atRelativePath: "camera/IMG_0001.jpg"))
    }

    func load(_ url: URL, thumbnail: PixelSize? = nil, options: WebImageOptions = [], context: WebImageContext = WebImageContext()) async throws -> ImageLoaderResult {
        var context = context
        if let thumbnail { context.imageThumbnailPixelSize = thumbnail }
        return try await loader.requestImage(with: url, options: options, context: context, progress: nil)
    }

    func centerColor(_ image: WebImage) -> RGBAColor {
        image.bitmap[image.pixelSize.width / 2, image.pixelSize.height / 2]
    }

    /// The "Done when": a 160x120 request of a 4000x3000 JPEG with an EXIF thumbnail does
    /// not decode the main image. Measured three ways: the pixels are the thumbnail's (blue, the
    /// photo is red), the loader counted no file load, and it read only the thumbnail's bytes.
    @Test func a160x120RequestOfA4000x3000PhotoDecodesOnlyTheEmbeddedThumbnail() async throws {
        #expect(asset.pixelSize == PixelSize(width: 4000, height: 3000))
        #expect(asset.embeddedThumbnail?.pixelSize == PixelSize(width: 160, height: 120))
        let result = try await load(asset.url, thumbnail: PixelSize(width: 160, height: 120))
        let image = try #require(result.image)
        #expect(image.pixelSize == PixelSize(width: 160, height: 120))
        #expect(Fixtures.close(centerColor(image), Fixtures.blue), "the thumbnail's pixels, not the photo's")
        #expect(image.metadata.contains(.thumbnail))
        #expect(image.format == .jpeg)
        #expect(result.data == nil, "the thumbnail's pixels match no file data")
        let statistics = loader.statistics
        #expect(statistics.embeddedThumbnailLoads == 1 && statistics.fileLoads == 0)
        #expect(statistics.bytesRead == Int64(Self.largeThumbnail.count), "only the thumbnail's bytes were read")
        #expect(statistics.bytesRead * 10 < asset.fileSize, "\(statistics.bytesRead) of \(asset.fileSize) bytes")
    }

    @Test(arguments: [
        // (requested, preserve aspect ratio, expected size, served by the embedded thumbnail)
        (PixelSize(width: 160, height: 120), true, PixelSize(width: 160, height: 120), true),
        (PixelSize(width: 80, height: 80), true, PixelSize(width: 80, height: 60), true),
        (PixelSize(width: 100, height: 100), false, PixelSize(width: 100, height: 100), true),
        (PixelSize(width: 200, height: 120), true, PixelSize(width: 160, height: 120), true),
        (PixelSize(width: 161, height: 121), true, PixelSize(width: 161, height: 121), false),
        (PixelSize(width: 400, height: 400), true, PixelSize(width: 400, height: 300), false),
    ])
    func theThumbnailServesEveryRequestItCovers(requested: PixelSize, preserve: Bool, expected: PixelSize, embedded: Bool) async throws {
        var context = WebImageContext()
        context.imagePreserveAspectRatio = preserve
        let image = try #require(try await load(asset.url, thumbnail: requested, context: context).image)
        #expect(image.pixelSize == expected)
        #expect(image.metadata.contains(.thumbnail))
        #expect(Fixtures.close(centerColor(image), embedded ? Fixtures.blue : Fixtures.red))
        #expect(loader.statistics.embeddedThumbnailLoads == (embedded ? 1 : 0))
        #expect(loader.statistics.fileLoads == (embedded ? 0 : 1), "too small: the whole file, DCT-scaled by JPEGCoder")
    }

    @Test func aScaleDownLimitIsServedLikeAThumbnailSize() async throws {
        var context = WebImageContext()
        context.imageScaleDownLimitBytes = 160 * 120 * 4
        let image = try #require(try await load(asset.url, options: [.scaleDownLargeImages], context: context).image)
        #expect(image.pixelSize == PixelSize(width: 160, height: 120))
        #expect(Fixtures.close(centerColor(image), Fixtures.blue))
        #expect(loader.statistics.embeddedThumbnailLoads == 1)
    }

    @Test func aFullSizeRequestNeverGetsTheThumbnail() async throws {
        let result = try await load(asset.url)
        let image = try #require(result.image)
        #expect(image.pixelSize == PixelSize(width: 4000, height: 3000))
        #expect(!image.metadata.contains(.thumbnail))
        #expect(Fixtures.close(centerColor(image), Fixtures.red))
        #expect(result.data == Self.large)
        #expect(loader.statistics == PhotosLoader.Statistics(embeddedThumbnailLoads: 0, fileLoads: 1, dataOnlyLoads: 0, bytesRead: Int64(Self.large.count)))
    }

    @Test func theFastPathCanBeTurnedOff() async throws {
        let plain = PhotosLoader(library: library, usesEmbeddedThumbnails: false)
        var context = WebImageContext()
        context.imageThumbnailPixelSize = PixelSize(width: 160, height: 120)
        let image = try #require(try await plain.requestImage(with: asset.url, options: [], context: context, progress: nil).image)
        #expect(image.pixelSize == PixelSize(width: 160, height: 120))
        #expect(Fixtures.close(centerColor(image), Fixtures.red))
        #expect(plain.statistics.fileLoads == 1 && plain.statistics.embeddedThumbnailLoads == 0)
    }

    @Test func aThumbnailOfAnotherAspectRatioIsNotUsed() async throws {
        // 16:9 photo, 4:3 thumbnail (cameras pad it with bars): it would distort or show bars.
        try folder.write(Fixtures.exifJPEG(width: 1600, height: 900, exif: EXIFBuilder(thumbnail: Self.largeThumbnail)), to: "wide.jpg")
        try await library.rescan()
        let wide = try #require(library.asset(atRelativePath: "wide.jpg"))
        #expect(wide.embeddedThumbnail != nil)
        let image = try #require(try await load(wide.url, thumbnail: PixelSize(width: 160, height: 90)).image)
        #expect(image.pixelSize == PixelSize(width: 160, height: 90))
        #expect(Fixtures.close(centerColor(image), Fixtures.red))
        #expect(loader.statistics.fileLoads == 1 && loader.statistics.embeddedThumbnailLoads == 0)
    }

    @Test func aTruncatedThumbnailFallsBackToThePhoto() async throws {
        let cut = Array(Self.largeThumbnail.prefix(Self.largeThumbnail.count * 2 / 3))
        try folder.write(Fixtures.exifJPEG(width: 800, height: 600, exif: EXIFBuilder(thumbnail: cut)), to: "cut.jpg")
        try await library.rescan()
        let damaged = try #require(library.asset(atRelativePath: "cut.jpg"))
        #expect(damaged.embeddedThumbnail != nil, "its header reads")
        let image = try #require(try await load(damaged.url, thumbnail: PixelSize(width: 160, height: 120)).image)
        #expect(image.pixelSize == PixelSize(width: 160, height: 120))
        #expect(Fixtures.close(centerColor(image), Fixtures.red), "the photo, not half a thumbnail")
        #expect(!image.metadata.contains(.incremental))
        #expect(loader.statistics.fileLoads == 1 && loader.statistics.embeddedThumbnailLoads == 0)
    }

    /// The EXIF thumbnail takes the photo's orientation: both paths give the same upright image.
    @Test func theThumbnailIsTurnedUprightLikeThePhoto() async throws {
        let thumbnail = Array(try Fixtures.halvesJPEG(width: 160, height: 120, left: Fixtures.blue, right: Fixtures.green))
        let photo = try Fixtures.halvesJPEG(width: 400, height: 300, left: Fixtures.red, right: Fixtures.yellow)
        try folder.write(EXIFBuilder(orientation: 6, thumbnail: thumbnail).inserted(into: photo), to: "rotated.jpg")
        try await library.rescan()
        let rotated = try #require(library.asset(atRelativePath: "rotated.jpg"))
        #expect(rotated.pixelSize == PixelSize(width: 300, height: 400))
        #expect(rotated.embeddedThumbnail?.pixelSize == PixelSize(width: 120, height: 160))

        // Orientation 6: turn 90 degrees clockwise; the stored left half ends up on top.
        let fast = try #require(try await load(rotated.url, thumbnail: PixelSize(width: 120, height: 160)).image)
        #expect(fast.pixelSize == PixelSize(width: 120, height: 160))
        #expect(fast.metadata.contains(.orientationApplied))
        #expect(Fixtures.close(fast.bitmap[60, 20], Fixtures.blue) && Fixtures.close(fast.bitmap[60, 140], Fixtures.green))
        #expect(loader.statistics.embeddedThumbnailLoads == 1)

        let slow = try #require(try await load(rotated.url, thumbnail: PixelSize(width: 150, height: 200)).image)
        #expect(slow.pixelSize == PixelSize(width: 150, height: 200))
        #expect(Fixtures.close(slow.bitmap[75, 20], Fixtures.red) && Fixtures.close(slow.bitmap[75, 180], Fixtures.yellow))
        #expect(loader.statistics.fileLoads == 1)

        // Keeping the stored orientation keeps the thumbnail's too.
        var options = ImageDecodeOptions()
        options.applyOrientation = false
        var context = WebImageContext()
        context.imageDecodeOptions = options
        let raw = try #require(try await load(rotated.url, thumbnail: PixelSize(width: 160, height: 120), context: context).image)
        #expect(raw.pixelSize == PixelSize(width: 160, height: 120))
        #expect(Fixtures.close(raw.bitmap[20, 60], Fixtures.blue) && Fixtures.close(raw.bitmap[140, 60], Fixtures.green))
        #expect(!raw.metadata.contains(.orientationApplied))
        #expect(loader.statistics.embeddedThumbnailLoads == 2)
    }

    @Test func theManagerPassesTheThumbnailSizeAndKeysTheResultByIt() async throws {
        let cache = MockImageCache()
        let manager = ImageManager(cache: cache, loader: loader)
        let result = try await manager.loadImage(with: asset.url, options: .photosLibrary,
                                                 context: .photosLibrary(thumbnailPixelSize: PixelSize(width: 160, height: 120)))
        #expect(result.image?.pixelSize == PixelSize(width: 160, height: 120))
        #expect(result.cacheKey.contains("Thumbnail(160x120"), "\(result.cacheKey)")
        #expect(loader.statistics.embeddedThumbnailLoads == 1)
        #expect(cache.queryCount == 0 && cache.storeCount == 0, "fromLoaderOnly, storeCacheType none")
    }
}
