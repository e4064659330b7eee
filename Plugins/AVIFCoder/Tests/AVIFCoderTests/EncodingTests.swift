import AVIFCoder
import Foundation
import SwiftWebImage
import Testing
import WebImageTestSupport

/// Encoding: lossless at quality 1, lossy below with size following quality, the speed setting
/// (coder and context), sequences with durations, and the size options.
@Suite(.onOwnThreads) struct EncodingTests {
    static let coder = AVIFCoder(speed: 10)
    static let busy = WebImage(bitmap: Pixels.busy(width: 64, height: 48))

    @Test func qualityOneIsLosslessAlphaIncluded() throws {
        let source = Pixels.picture(width: 33, height: 17, alpha: true)
        var bitmap = source
        bitmap[0, 0] = RGBAColor(red: 200, green: 10, blue: 90, alpha: 0)  // color under transparency kept
        let data = try Self.coder.encode(WebImage(bitmap: bitmap), as: .avif)
        let decoded = try Self.coder.decode(data)
        #expect(decoded.bitmap.bytes == bitmap.bytes)
        #expect(decoded.hasAlpha)
    }

    @Test func lowerQualityGivesSmallerFilesWithinATolerance() throws {
        let high = try Self.coder.encode(Self.busy, as: .avif, options: ImageEncodeOptions(compressionQuality: 0.9))
        let low = try Self.coder.encode(Self.busy, as: .avif, options: ImageEncodeOptions(compressionQuality: 0.3))
        #expect(low.count < high.count, "q0.3 \(low.count) bytes, q0.9 \(high.count) bytes")
        let decoded = try Self.coder.decode(high)
        #expect(!decoded.hasAlpha)
        // 4:2:0 and the quantizer: the channels move, but not far, at q0.9.
        let difference = Pixels.maxDifference(decoded.bitmap, Self.busy.bitmap)
        #expect(difference <= 60, "q0.9 differs by \(difference)")
        #expect(difference > 0)
    }

    @Test func speedComesFromTheCoderOrTheContext() throws {
        let image = WebImage(bitmap: Pixels.busy(width: 96, height: 64))
        let options = ImageEncodeOptions(compressionQuality: 0.5)
        let slow = try AVIFCoder(speed: 2).encode(image, as: .avif, options: options)
        let fast = try AVIFCoder(speed: 10).encode(image, as: .avif, options: options)
        #expect(slow != fast)
        var override = options
        override.context.avifEncodingSpeed = 10
        #expect(try AVIFCoder(speed: 2).encode(image, as: .avif, options: override) == fast)
        override.context.avifEncodingSpeed = 99  // clamped to 10
        #expect(try AVIFCoder(speed: 2).encode(image, as: .avif, options: override) == fast)
    }

    @Test func animatedImagesBecomeSequences() throws {
        let frames = (0..<3).map { index in
            ImageFrame(bitmap: Pixels.picture(width: 24, height: 16, alpha: index == 1, seed: index * 30), duration: [0.04, 0.5, 0.0004][index])
        }
        let animated = try WebImage(frames: frames, loopCount: 3)
        let data = try Self.coder.encode(animated, as: .avif)
        #expect(ImageFormat.detectDetails(data) == ImageFormatDetection(format: .avif, isAnimated: true))
        let decoded = try Self.coder.decode(data)
        #expect(decoded.frameCount == 3)
        // Milliseconds, at least 1 ms; libavif 0.11 writes no loop count: forever.
        #expect(decoded.statedFrameDurations.map { ($0 * 1000).rounded() } == [40, 500, 1])
        #expect(decoded.loopCount == 0)
        #expect(decoded.hasAlpha)
        for index in 0..<3 {
            let difference = Pixels.maxDifference(try decoded.frame(at: index).bitmap, frames[index].bitmap)
            #expect(difference == 0, "frame \(index) differs by \(difference) (lossless)")
        }
        var first = ImageEncodeOptions()
        first.firstFrameOnly = true
        let still = try Self.coder.decode(try Self.coder.encode(animated, as: .avif, options: first))
        #expect(still.frameCount == 1)
        #expect(still.bitmap.bytes == frames[0].bitmap.bytes)
    }

    /// Lossy sequences use inter frames; each frame still comes back close to its own source.
    @Test func lossySequenceFramesFollowTheirSources() throws {
        let frames = (0..<4).map { index in
            ImageFrame(bitmap: Pixels.picture(width: 48, height: 32, alpha: false, seed: index * 25), duration: 0.1)
        }
        var options = ImageEncodeOptions(compressionQuality: 0.9)
        options.context.avifEncodingSpeed = 10
        let decoded = try Self.coder.decode(try Self.coder.encode(try WebImage(frames: frames), as: .avif, options: options))
        #expect(decoded.frameCount == 4)
        for index in 0..<4 {
            let difference = Pixels.maxDifference(try decoded.frame(at: index).bitmap, frames[index].bitmap)
            #expect(difference <= 12, "frame \(index) differs by \(difference)")
        }
    }

    @Test func maxPixelSizeDownsizesFirst() throws {
        var options = ImageEncodeOptions(compressionQuality: 0.8)
        options.maxPixelSize = PixelSize(width: 32, height: 32)
        let decoded = try Self.coder.decode(try Self.coder.encode(Self.busy, as: .avif, options: options))
        #expect(decoded.pixelSize == PixelSize(width: 32, height: 24))
    }

    @Test func maxFileSizeLowersTheQualityUntilItFits() throws {
        let image = WebImage(bitmap: Pixels.busy(width: 128, height: 96))
        let full = try Self.coder.encode(image, as: .avif, options: ImageEncodeOptions(compressionQuality: 0.95))
        let worst = try Self.coder.encode(image, as: .avif, options: ImageEncodeOptions(compressionQuality: 0))
        let limit = (full.count + worst.count) / 2
        var options = ImageEncodeOptions(compressionQuality: 0.95)
        options.maxFileSize = limit
        let fitted = try Self.coder.encode(image, as: .avif, options: options)
        #expect(fitted.count <= limit, "\(fitted.count) > \(limit)")
        #expect(fitted.count > worst.count, "bisection settled on the worst quality")
        options.maxFileSize = 10  // nothing fits: the worst quality's output
        #expect(try Self.coder.encode(image, as: .avif, options: options) == worst)
    }

    @Test func otherFormatsAreRefused() throws {
        #expect(Self.coder.canEncode(to: .avif))
        #expect(!Self.coder.canEncode(to: .webp))
        let error = try #require(throws: WebImageError.self) { try Self.coder.encode(Self.busy, as: .png) }
        #expect(error.code == .unsupportedFormat)
    }
}
