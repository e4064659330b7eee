import Foundation
import HEIFCoder
import Testing
import WebImageTestSupport
import WebImageCore

/// The thumbnail stored in a file is used for thumbnail requests it can serve. The test files
/// store a thumbnail whose pixels (green) differ from the primary image's (red), so that which
/// one was decoded shows.
@Suite(.onOwnThreads) struct ThumbnailTests {
    static let red = RGBAColor(red: 255, green: 0, blue: 0, alpha: 255)
    static let green = RGBAColor(red: 0, green: 255, blue: 0, alpha: 255)

    /// A 512x384 red primary image with a green 64x48 thumbnail.
    static func file() throws -> Data {
        try HEIFFileMaker.heic(
            Pixels.make(width: 512, height: 384, hasAlpha: false) { _, _ in red },
            thumbnail: Pixels.make(width: 512, height: 384, hasAlpha: false) { _, _ in green },
            thumbnailSide: 64
        )
    }

    static func options(_ side: Int) -> ImageDecodeOptions {
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(width: side, height: side)
        return options
    }

    @Test func smallRequestsUseTheStoredThumbnail() throws {
        let data = try Self.file()
        #expect(try HEIFFileMaker.thumbnailCount(data) == 1)
        let exact = try HEIFCoder().decode(data, options: Self.options(64))
        #expect(exact.pixelSize == PixelSize(width: 64, height: 48))
        #expect(exact.metadata.contains(.thumbnail))
        #expect(Pixels.near(exact.bitmap[32, 24], Self.green), "\(exact.bitmap[32, 24])")
        let smaller = try HEIFCoder().decode(data, options: Self.options(20))
        #expect(smaller.pixelSize == PixelSize(width: 20, height: 15))
        #expect(Pixels.near(smaller.bitmap[10, 7], Self.green), "\(smaller.bitmap[10, 7])")
    }

    /// A request larger than the stored thumbnail decodes the primary image.
    @Test func largerRequestsUseThePrimaryImage() throws {
        let image = try HEIFCoder().decode(Self.file(), options: Self.options(100))
        #expect(image.pixelSize == PixelSize(width: 100, height: 75))
        #expect(image.metadata.contains(.thumbnail))
        #expect(Pixels.near(image.bitmap[50, 37], Self.red), "\(image.bitmap[50, 37])")
    }

    @Test func fullDecodesIgnoreTheThumbnail() throws {
        let image = try HEIFCoder().decode(Self.file())
        #expect(image.pixelSize == PixelSize(width: 512, height: 384))
        #expect(!image.metadata.contains(.thumbnail))
        #expect(Pixels.near(image.bitmap[256, 192], Self.red))
    }

    @Test func storedThumbnailsCanBeTurnedOff() throws {
        let image = try HEIFCoder(usesEmbeddedThumbnails: false).decode(Self.file(), options: Self.options(64))
        #expect(image.pixelSize == PixelSize(width: 64, height: 48))
        #expect(Pixels.near(image.bitmap[32, 24], Self.red))
    }

    /// `scaleDownLimitBytes` is a thumbnail request too.
    @Test func scaleDownLimitUsesTheStoredThumbnail() throws {
        var options = ImageDecodeOptions()
        options.scaleDownLimitBytes = 40 * 30 * 4
        let image = try HEIFCoder().decode(Self.file(), options: options)
        #expect(image.pixelSize == PixelSize(width: 40, height: 30))
        #expect(Pixels.near(image.bitmap[20, 15], Self.green))
    }

    /// A stored thumbnail of another aspect ratio is not used (it would distort the image).
    @Test func thumbnailsOfAnotherAspectRatioAreIgnored() throws {
        let data = try HEIFFileMaker.heic(
            Pixels.make(width: 512, height: 384, hasAlpha: false) { _, _ in Self.red },
            thumbnail: Pixels.make(width: 128, height: 128, hasAlpha: false) { _, _ in Self.green },
            thumbnailSide: 64
        )
        let image = try HEIFCoder().decode(data, options: Self.options(32))
        #expect(image.pixelSize == PixelSize(width: 32, height: 24))
        #expect(Pixels.near(image.bitmap[16, 12], Self.red))
    }

    /// The coder's encoder stores a thumbnail with `embedThumbnail`, which its decoder uses.
    @Test(.enabled(if: HEIFCoder().canEncode(to: .heic), "libheif has no HEVC encoder: skipped"))
    func encoderEmbedsAThumbnail() throws {
        let source = WebImage(bitmap: Pixels.smooth(width: 400, height: 300))
        var options = ImageEncodeOptions(compressionQuality: 0.8)
        options.embedThumbnail = true
        let coder = HEIFCoder(embeddedThumbnailSide: 100)
        let data = try coder.encode(source, as: .heic, options: options)
        #expect(try HEIFFileMaker.thumbnailCount(data) == 1)
        #expect(try HEIFFileMaker.thumbnailCount(coder.encode(source, as: .heic)) == 0)
        let thumbnail = try coder.decode(data, options: Self.options(100))
        #expect(thumbnail.pixelSize == PixelSize(width: 100, height: 75))
        let full = try coder.decode(data).bitmap.resampled(to: thumbnail.pixelSize, filter: .lanczos3)
        #expect(Pixels.compare(thumbnail.bitmap, full, includeAlpha: false).mean < 16)
    }

    /// The stored thumbnail is a Lanczos-3 resample of the image (libheif 1.15's own thumbnail
    /// encoder scales by nearest neighbour): close to the full decode resampled, as a
    /// shrink-on-load server that starts from it needs.
    @Test(.enabled(if: HEIFCoder().canEncode(to: .heic), "libheif has no HEVC encoder: skipped"))
    func theStoredThumbnailIsResampledNotPointSampled() throws {
        // Fine detail (a one-pixel checkerboard over a gradient) that point sampling aliases.
        let source = Pixels.make(width: 800, height: 600, hasAlpha: false) { x, y in
            let base = UInt8(60 + x * 120 / 800), ripple: UInt8 = (x + y) % 2 == 0 ? 40 : 0
            return RGBAColor(red: base + ripple, green: base, blue: UInt8(200 - y / 4), alpha: 255)
        }
        var options = ImageEncodeOptions(compressionQuality: 0.9)
        options.embedThumbnail = true
        let coder = HEIFCoder(embeddedThumbnailSide: 200)
        let data = try coder.encode(WebImage(bitmap: source), as: .heic, options: options)
        #expect(try coder.readProperties(of: data).embeddedThumbnailSizes == [PixelSize(width: 200, height: 150)])
        let thumbnail = try coder.decode(data, options: Self.options(200))
        let expected = try source.resampled(to: PixelSize(width: 200, height: 150), filter: .lanczos3)
        let difference = Pixels.compare(thumbnail.bitmap, expected, includeAlpha: false)
        #expect(difference.mean < 3, "mean difference \(difference.mean) from a Lanczos-3 resample")
    }
}

/// The header reader (``HEIFCoder/readProperties(of:)``): the primary image's size and alpha,
/// and the sizes of the stored thumbnails a thumbnail decode would use.
@Suite(.onOwnThreads) struct HEIFPropertiesTests {
    @Test func theStoredThumbnailsSizesAreListed() throws {
        let data = try ThumbnailTests.file()
        let properties = try HEIFCoder().readProperties(of: data)
        #expect(properties.format == .heic)
        #expect(properties.pixelSize == PixelSize(width: 512, height: 384))
        #expect(!properties.hasAlpha)
        #expect(properties.embeddedThumbnailSizes == [PixelSize(width: 64, height: 48)])
        // A decode asked for exactly that size reads the thumbnail (green), not the primary image.
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(width: 64, height: 48)
        options.preserveAspectRatio = false
        let thumbnail = try HEIFCoder().decode(data, options: options)
        #expect(thumbnail.pixelSize == PixelSize(width: 64, height: 48))
        #expect(Pixels.near(thumbnail.bitmap[32, 24], ThumbnailTests.green))
        // A coder that does not use them lists none.
        #expect(try HEIFCoder(usesEmbeddedThumbnails: false).readProperties(of: data).embeddedThumbnailSizes.isEmpty)
    }

    /// A thumbnail of another aspect ratio is one the decoder would not use: not listed.
    @Test func aThumbnailOfAnotherAspectRatioIsNotListed() throws {
        let data = try HEIFFileMaker.heic(
            Pixels.make(width: 512, height: 384, hasAlpha: false) { _, _ in ThumbnailTests.red },
            thumbnail: Pixels.make(width: 128, height: 128, hasAlpha: false) { _, _ in ThumbnailTests.green },
            thumbnailSide: 64
        )
        #expect(try HEIFCoder().readProperties(of: data).embeddedThumbnailSizes.isEmpty)
    }

    @Test func dataThatIsNotHEIFThrowsBadImageData() throws {
        for bad in [Data("not an image at all".utf8), Data(try ThumbnailTests.file().prefix(40))] {
            do {
                _ = try HEIFCoder().readProperties(of: bad)
                Issue.record("\(bad.count) bytes were read")
            } catch let error as WebImageError {
                #expect(error.code == .badImageData)
            }
        }
    }
}
