import Foundation
import Testing
import WebImageTestSupport
import WebImageCore
import WebPCoder

/// Encoding: lossy with quality, lossless, the context key, size options, animations.
@Suite(.onOwnThreads) struct EncodingTests {
    let photo = WebImage(bitmap: Pixels.busy(width: 96, height: 64))

    @Test func encodesOnlyWebP() throws {
        let coder = WebPCoder()
        #expect(coder.canEncode(to: .webp))
        for format in [ImageFormat.png, .jpeg, .gif, .undefined] {
            #expect(!coder.canEncode(to: format))
            let error = try #require(throws: WebImageError.self) { try coder.encode(photo, as: format) }
            #expect(error.code == .unsupportedFormat)
            #expect(error.message.contains(format.rawValue))
        }
    }

    @Test func losslessAndLossyWriteTheirBitstreams() throws {
        let opaque = WebImage(bitmap: TestImages.gradient(width: 20, height: 20))
        let translucent = WebImage(bitmap: TestImages.gradient(width: 20, height: 20, alpha: true))
        #expect(Pixels.fourCC(try WebPCoder(lossless: true).encode(opaque, as: .webp), at: 12) == "VP8L")
        #expect(Pixels.fourCC(try WebPCoder(lossless: false).encode(opaque, as: .webp), at: 12) == "VP8 ")
        // Lossy with alpha: an extended file with an ALPH chunk before the VP8 one.
        let lossyAlpha = try WebPCoder(lossless: false).encode(translucent, as: .webp)
        #expect(Pixels.fourCC(lossyAlpha, at: 12) == "VP8X")
        #expect(Pixels.fourCC(lossyAlpha, at: 30) == "ALPH")
    }

    @Test func theContextKeyOverridesTheCodersSetting() throws {
        var lossless = ImageEncodeOptions()
        lossless.context.webPLossless = true
        var lossy = ImageEncodeOptions()
        lossy.context.webPLossless = false
        #expect(Pixels.fourCC(try WebPCoder(lossless: false).encode(photo, as: .webp, options: lossless), at: 12) == "VP8L")
        #expect(Pixels.fourCC(try WebPCoder(lossless: true).encode(photo, as: .webp, options: lossy), at: 12) == "VP8 ")
        #expect(lossless.context.webPLossless == true)
        #expect(ImageEncodeOptions().context.webPLossless == nil)
    }

    @Test func lowerQualityGivesSmallerFilesAndLargerErrors() throws {
        let coder = WebPCoder()
        var sizes: [Int] = []
        var errors: [Int] = []
        for quality in [0.1, 0.5, 0.9] {
            let data = try coder.encode(photo, as: .webp, options: ImageEncodeOptions(compressionQuality: quality))
            sizes.append(data.count)
            errors.append(Pixels.maxDifference(try coder.decode(data).bitmap, photo.bitmap))
        }
        #expect(sizes == sizes.sorted() && Set(sizes).count == 3, "sizes \(sizes)")
        #expect(errors[0] > errors[2], "errors \(errors)")
    }

    @Test func losslessIsExactAtEveryQuality() throws {
        let source = WebImage(bitmap: TestImages.gradient(width: 30, height: 20, alpha: true))
        for quality in [0.0, 0.5, 1.0] {
            let data = try WebPCoder(lossless: true).encode(source, as: .webp, options: ImageEncodeOptions(compressionQuality: quality))
            #expect(try WebPCoder().decode(data).bitmap.bytes == source.bitmap.bytes, "quality \(quality)")
        }
    }

    @Test func maxPixelSizeDownsizesKeepingTheAspectRatio() throws {
        var options = ImageEncodeOptions()
        options.maxPixelSize = PixelSize(width: 24, height: 24)
        let data = try WebPCoder().encode(photo, as: .webp, options: options)
        #expect(try WebPCoder().decode(data).pixelSize == PixelSize(width: 24, height: 16))
    }

    @Test func maxFileSizeFindsTheHighestQualityThatFits() throws {
        let coder = WebPCoder()
        let atHalf = try coder.encode(photo, as: .webp, options: ImageEncodeOptions(compressionQuality: 0.5))
        var options = ImageEncodeOptions(compressionQuality: 1)
        options.maxFileSize = atHalf.count
        let fitted = try coder.encode(photo, as: .webp, options: options)
        #expect(fitted.count <= atHalf.count)
        // It is the output of a whole quality q whose successor q + 1 no longer fits (sizes grow
        // with quality only roughly, so that is what bisection promises; neighbouring qualities
        // may give identical bytes, hence the last match).
        let outputs = try (0...100).map { try coder.encode(photo, as: .webp, options: ImageEncodeOptions(compressionQuality: Double($0) / 100)) }
        let quality = try #require(outputs.lastIndex(of: fitted))
        #expect(quality < 100 && outputs[quality + 1].count > atHalf.count, "quality \(quality)")
        // An impossible limit gives the smallest output there is: quality 0.
        options.maxFileSize = 10
        let smallest = try coder.encode(photo, as: .webp, options: options)
        #expect(smallest == (try coder.encode(photo, as: .webp, options: ImageEncodeOptions(compressionQuality: 0))))
        // A limit the first try meets changes nothing.
        options.maxFileSize = 10_000_000
        #expect(try coder.encode(photo, as: .webp, options: options) == (try coder.encode(photo, as: .webp)))
    }

    @Test func maxFileSizeDoesNotApplyToLossless() throws {
        var options = ImageEncodeOptions()
        options.maxFileSize = 10
        let data = try WebPCoder(lossless: true).encode(photo, as: .webp, options: options)
        #expect(Pixels.fourCC(data, at: 12) == "VP8L")
        #expect(try WebPCoder().decode(data).bitmap.bytes == photo.bitmap.bytes)
    }

    @Test func firstFrameOnlyWritesAStill() throws {
        let animated = TestImages.animated(frames: 3)
        let data = try WebPCoder().encode(animated, as: .webp, options: ImageEncodeOptions(firstFrameOnly: true))
        #expect(!ImageFormat.detectDetails(data).isAnimated)
        let decoded = try WebPCoder().decode(data)
        #expect(decoded.frameCount == 1)
        #expect(Pixels.maxDifference(decoded.bitmap, animated.bitmap) <= 3)
    }

    @Test func animationsWithoutALoopCountLoopForever() throws {
        var animated = TestImages.animated(frames: 2)
        animated.loopCount = nil
        let decoded = try WebPCoder(lossless: true).decode(try WebPCoder(lossless: true).encode(animated, as: .webp))
        #expect(decoded.loopCount == 0)
    }

    @Test func identicalConsecutiveFramesAreMergedWithTheirDurationsSummed() throws {
        let red = TestImages.solid(RGBAColor(red: 255, green: 0, blue: 0), width: 8, height: 8)
        let blue = TestImages.solid(RGBAColor(red: 0, green: 0, blue: 255), width: 8, height: 8)
        let source = try WebImage(frames: [ImageFrame(bitmap: red, duration: 0.1), ImageFrame(bitmap: red, duration: 0.2), ImageFrame(bitmap: blue, duration: 0.3)])
        let decoded = try WebPCoder(lossless: true).decode(try WebPCoder(lossless: true).encode(source, as: .webp))
        #expect(decoded.frameCount == 2)
        #expect(decoded.frameDurations == [0.3, 0.3])
        #expect(try decoded.frame(at: 1).bitmap == blue)
    }

    @Test func animationFramesAreDownsizedToo() throws {
        var options = ImageEncodeOptions()
        options.maxPixelSize = PixelSize(width: 4, height: 4)
        let data = try WebPCoder().encode(TestImages.animated(frames: 3, width: 8, height: 8), as: .webp, options: options)
        let decoded = try WebPCoder().decode(data)
        #expect(decoded.pixelSize == PixelSize(width: 4, height: 4))
        #expect(decoded.frameCount == 3)
    }

    @Test func imagesWebPCannotHoldFailClearly() throws {
        let wide = WebImage(bitmap: try Bitmap(width: 16384, height: 1, fill: .white))
        let error = try #require(throws: WebImageError.self) { try WebPCoder().encode(wide, as: .webp) }
        #expect(error.code == .encodingFailed)
        #expect(error.message.contains("16384x1"))
        #expect(error.message.contains("16383"))
        let animated = try WebImage(frames: [ImageFrame(bitmap: try Bitmap(width: 1, height: 20000, fill: .white), duration: 0.1),
                                             ImageFrame(bitmap: try Bitmap(width: 1, height: 20000, fill: .black), duration: 0.1)])
        #expect(throws: WebImageError.self) { try WebPCoder().encode(animated, as: .webp) }
    }

    @Test func encodingIsDeterministic() throws {
        #expect(try WebPCoder().encode(photo, as: .webp) == (try WebPCoder().encode(photo, as: .webp)))
    }

    @Test func theMethodIsClampedAndChangesTheOutput() throws {
        #expect(WebPCoder(method: 9).method == 6)
        #expect(WebPCoder(method: -1).method == 0)
        let fast = try WebPCoder(lossless: true, method: 0).encode(photo, as: .webp)
        let slow = try WebPCoder(lossless: true, method: 6).encode(photo, as: .webp)
        #expect(fast != slow)
        #expect(try WebPCoder().decode(fast).bitmap.bytes == photo.bitmap.bytes)
        #expect(try WebPCoder().decode(slow).bitmap.bytes == photo.bitmap.bytes)
    }
}
