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
}
