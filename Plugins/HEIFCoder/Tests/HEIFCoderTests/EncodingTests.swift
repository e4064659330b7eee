import Foundation
import HEIFCoder
import SwiftWebImage
import Testing
import WebImageTestSupport

/// Encoding to HEIC with libheif's HEVC encoder.
@Suite(.onOwnThreads, .enabled(if: HEIFCoder().canEncode(to: .heic), "libheif has no HEVC encoder: skipped"))
struct EncodingTests {
    static let photo = WebImage(bitmap: Pixels.smooth(width: 256, height: 192))

    @Test func formats() {
        #expect(HEIFCoder().canEncode(to: .heic))
        #expect(!HEIFCoder().canEncode(to: .heif))
        #expect(!HEIFCoder().canEncode(to: .avif))
        #expect(!HEIFCoder().canEncode(to: .png))
        #expect(throws: WebImageError.self) { try HEIFCoder().encode(Self.photo, as: .png) }
    }

    @Test func qualityChangesTheSize() throws {
        let low = try HEIFCoder().encode(Self.photo, as: .heic, options: ImageEncodeOptions(compressionQuality: 0.1))
        let high = try HEIFCoder().encode(Self.photo, as: .heic, options: ImageEncodeOptions(compressionQuality: 0.95))
        #expect(low.count < high.count, "\(low.count) vs \(high.count) bytes")
        let decoded = try HEIFCoder().decode(high)
        #expect(Pixels.compare(decoded.bitmap, Self.photo.bitmap, includeAlpha: false).max <= 12)
    }

    @Test func maxPixelSizeDownsizes() throws {
        var options = ImageEncodeOptions()
        options.maxPixelSize = PixelSize(width: 64, height: 64)
        let image = try HEIFCoder().decode(HEIFCoder().encode(Self.photo, as: .heic, options: options))
        #expect(image.pixelSize == PixelSize(width: 64, height: 48))
    }

    @Test func maxFileSizeLowersTheQuality() throws {
        let full = try HEIFCoder().encode(Self.photo, as: .heic)
        var options = ImageEncodeOptions()
        options.maxFileSize = full.count / 3
        let small = try HEIFCoder().encode(Self.photo, as: .heic, options: options)
        #expect(small.count <= full.count / 3, "\(small.count) bytes, limit \(full.count / 3)")
        #expect(try HEIFCoder().decode(small).pixelSize == Self.photo.pixelSize)
    }

    /// An animated image is written as its first frame.
    @Test func animatedImagesWriteTheirFirstFrame() throws {
        let first = Pixels.make(width: 32, height: 32, hasAlpha: false) { _, _ in RGBAColor(red: 255, green: 0, blue: 0, alpha: 255) }
        let second = Pixels.make(width: 32, height: 32, hasAlpha: false) { _, _ in RGBAColor(red: 0, green: 0, blue: 255, alpha: 255) }
        let animated = try WebImage(frames: [ImageFrame(bitmap: first, duration: 0.1), ImageFrame(bitmap: second, duration: 0.1)])
        let image = try HEIFCoder().decode(HEIFCoder().encode(animated, as: .heic))
        #expect(Pixels.near(image.bitmap[16, 16], RGBAColor(red: 255, green: 0, blue: 0, alpha: 255)))
    }

    @Test func oversizedImagesAreRefused() throws {
        let wide = WebImage(bitmap: try Bitmap(width: 16385, height: 1, hasAlpha: false))
        #expect(throws: WebImageError.self) { try HEIFCoder().encode(wide, as: .heic) }
    }

    /// Registered with one line, the coder decodes HEIC through a manager and the umbrella's
    /// decoding entry points; the built-in coders still handle the rest.
    @Test func registeredInACodersManager() throws {
        let manager = CodersManager([PNGCoder()])
        manager.add(HEIFCoder())
        let data = try HEIFCoder().encode(Self.photo, as: .heic)
        let image = try manager.decode(data, options: ImageDecodeOptions())
        #expect(image.format == .heic)
        #expect(image.pixelSize == Self.photo.pixelSize)
        #expect(manager.canEncode(to: .heic))
    }
}
