import Foundation
import Testing
import WebImageTestSupport
import WebImageCore
import WebPCoder

/// SDWebImage's WebP test images from ../shared/testdata/sdwebimage, skipped (saying so) when
/// the folder is absent.
///
/// How the expected values were verified, once, when the tests were written (no tool is needed
/// to run them):
/// - sizes, frame counts, loop counts, durations, disposal and blending: `webpinfo` (libwebp
///   1.2.4, Debian package `webp`);
/// - pixels: `dwebp -pam` (libwebp 1.2.4) for the still, and Pillow 13.0.0 (its own libwebp 1.6.0,
///   `ImageSequence` over `WebPAnimDecoder`, converted to RGBA) for every frame; both give the
///   FNV-1a 64 hashes below (of the RGBA8 bytes, row by row), and the sample pixels are Pillow's
///   `getpixel` values.
/// At run time the animated frames are also compared with libwebp's own `WebPAnimDecoder`.
@Suite(.onOwnThreads) struct FixtureTests {
    static let coder = WebPCoder()

    static func load(_ name: String) throws -> Data {
        try Data(contentsOf: TestData.sdWebImage(name))
    }

    @Test(.enabled(if: TestData.has("TestImageStatic.webp"), "../shared/testdata/sdwebimage/TestImageStatic.webp is absent: skipped"))
    func staticLossyImage() throws {
        let data = try Self.load("TestImageStatic.webp")
        #expect(Self.coder.canDecode(data))
        #expect(ImageFormat.detectDetails(data) == ImageFormatDetection(format: .webp, isAnimated: false))
        let image = try Self.coder.decode(data)
        #expect(image.pixelSize == PixelSize(width: 550, height: 368))
        #expect(image.frameCount == 1)
        #expect(image.loopCount == nil)
        #expect(!image.hasAlpha)
        #expect(Pixels.hash(image.bitmap) == 0x77D2_378D_A785_E5E3)
        let samples: [((Int, Int), RGBAColor)] = [
            ((0, 0), RGBAColor(red: 118, green: 181, blue: 241, alpha: 255)),
            ((275, 184), RGBAColor(red: 19, green: 71, blue: 113, alpha: 255)),
            ((549, 367), RGBAColor(red: 22, green: 28, blue: 24, alpha: 255)),
            ((100, 300), RGBAColor(red: 21, green: 36, blue: 47, alpha: 255)),
            ((400, 50), RGBAColor(red: 251, green: 255, blue: 255, alpha: 255)),
        ]
        for ((x, y), color) in samples {
            #expect(image.bitmap[x, y] == color, "pixel \(x),\(y)")
        }
    }

    @Test(.enabled(if: TestData.has("TestImageStatic.webp"), "../shared/testdata/sdwebimage/TestImageStatic.webp is absent: skipped"))
    func staticThumbnailAndProgressive() throws {
        let data = try Self.load("TestImageStatic.webp")
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(width: 100, height: 100)
        let thumbnail = try Self.coder.decode(data, options: options)
        #expect(thumbnail.pixelSize == PixelSize(width: 100, height: 67))
        #expect(thumbnail.metadata.contains(.thumbnail))
        // Close to the full image resampled by another filter (Core's Lanczos-3): libwebp's
        // rescaler averages, so edges differ a little, the mean hardly.
        let resampled = try Self.coder.decode(data).bitmap.resampled(to: thumbnail.pixelSize, filter: .lanczos3)
        var total = 0
        for y in 0..<67 {
            for x in 0..<100 { total += Pixels.difference(thumbnail.bitmap[x, y], resampled[x, y]) }
        }
        #expect(Double(total) / 6700 < 4, "mean difference \(Double(total) / 6700)")

        let decoder = Self.coder.makeIncrementalDecoder(options: ImageDecodeOptions())
        decoder.update(data: data.prefix(data.count / 2), finished: false)
        let partial = try #require(decoder.currentImage())
        #expect(partial.metadata.contains(.incremental))
        let full = try Self.coder.decode(data)
        let rows = IncrementalTests.checkRows(partial.bitmap, against: full.bitmap)
        #expect(rows > 0 && rows < 368, "\(rows) rows from half the data")
    }

    /// 8 lossless frames with alpha on a 990x1050 canvas, each a sub-rectangle that replaces
    /// the canvas (no blending) and is disposed to the background; 100 ms each; loops forever.
    @Test(.enabled(if: TestData.has("TestImageAnimated.webp"), "../shared/testdata/sdwebimage/TestImageAnimated.webp is absent: skipped"))
    func animatedLosslessImage() throws {
        let data = try Self.load("TestImageAnimated.webp")
        #expect(ImageFormat.detectDetails(data) == ImageFormatDetection(format: .webp, isAnimated: true))
        let image = try Self.coder.decode(data)
        #expect(image.pixelSize == PixelSize(width: 990, height: 1050))
        #expect(image.frameCount == 8)
        #expect(image.loopCount == 0)
        #expect(image.frameDurations == Array(repeating: 0.1, count: 8))
        #expect(image.isLazilyAnimated)
        #expect(image.hasAlpha)
        let hashes: [UInt64] = [
            0x9A19_9965_32EB_C015, 0x8B7E_7A92_020D_D165, 0xD024_96D2_E3C6_1C0D, 0x97A8_76A6_3458_8D1D,
            0xF8E5_BEE3_58A1_0AF5, 0x2CBD_7F11_F88E_4DC5, 0x64A0_AC01_07E8_592D, 0x95B9_7D96_C847_FF7D,
        ]
        let reference = try ReferenceAnimationDecoder.decode(data)
        #expect(reference.frames.count == 8)
        for index in 0..<8 {
            let frame = try image.frame(at: index).bitmap
            #expect(Pixels.hash(frame) == hashes[index], "frame \(index)")
            #expect(frame.bytes == reference.frames[index].bytes, "frame \(index) against WebPAnimDecoder")
        }
        // Pillow's pixels at the centre: black, black, yellow, red, black, black, yellow, red.
        let centres: [RGBAColor] = [.init(red: 0, green: 0, blue: 0, alpha: 255), .init(red: 0, green: 0, blue: 0, alpha: 255),
                                    .init(red: 255, green: 255, blue: 0, alpha: 255), .init(red: 255, green: 0, blue: 0, alpha: 255),
                                    .init(red: 0, green: 0, blue: 0, alpha: 255), .init(red: 0, green: 0, blue: 0, alpha: 255),
                                    .init(red: 255, green: 255, blue: 0, alpha: 255), .init(red: 255, green: 0, blue: 0, alpha: 255)]
        for (index, colour) in centres.enumerated() {
            #expect(try image.frame(at: index).bitmap[495, 525] == colour, "frame \(index)")
            #expect(try image.frame(at: index).bitmap[0, 0].alpha == 0, "frame \(index): the corner is transparent")
        }
    }

    /// 16 lossy opaque frames of 600x600, blended over and kept, 333 or 334 ms each.
    @Test(.enabled(if: TestData.has("TestAnimatedImageMemory.webp"), "../shared/testdata/sdwebimage/TestAnimatedImageMemory.webp is absent: skipped"))
    func animatedLossyImage() throws {
        let data = try Self.load("TestAnimatedImageMemory.webp")
        let image = try Self.coder.decode(data)
        #expect(image.pixelSize == PixelSize(width: 600, height: 600))
        #expect(image.frameCount == 16)
        #expect(image.loopCount == 0)
        let milliseconds = [333, 334, 333, 333, 334, 333, 333, 334, 333, 333, 334, 333, 333, 334, 333, 333]
        #expect(image.frameDurations == milliseconds.map { Double($0) / 1000 })
        #expect(!image.hasAlpha, "every frame is opaque and covers the canvas")
        #expect(image.isLazilyAnimated)
        let hashes: [UInt64] = [
            0x65E6_2DE2_5D04_5009, 0x8D1D_3283_8287_94EA, 0x2F18_1100_0AC6_3476, 0x03F1_5F2D_4A6C_DED9,
            0xE293_BCE9_981C_AA7A, 0x7837_D3B5_CA08_9779, 0x6C43_A4B8_C2E0_2827, 0x496E_1622_8C89_E115,
            0x04A7_DD04_6879_57EB, 0x0634_4BD6_7B69_7950, 0x5B10_EB5E_0DBE_FB27, 0x8515_5A51_AF7C_D0B0,
            0x7CD8_2D61_167F_89D1, 0xA756_8C46_5AE1_0585, 0xBA76_A780_BE6A_FB72, 0xD595_8DC6_5C82_223A,
        ]
        // Backwards, to exercise random access (every frame here is a keyframe).
        for index in (0..<16).reversed() {
            #expect(Pixels.hash(try image.frame(at: index).bitmap) == hashes[index], "frame \(index)")
        }
        // Pillow's pixel at the centre of frames 0 and 15.
        #expect(try image.frame(at: 0).bitmap[300, 300] == RGBAColor(red: 194, green: 174, blue: 97, alpha: 255))
        #expect(try image.frame(at: 15).bitmap[300, 300] == RGBAColor(red: 239, green: 205, blue: 176, alpha: 255))
        // Lazy frames stay within the animated image's buffer bound (32 MiB; 16 frames of
        // 1.44 MB would fit, so check the bound is what holds them, not a copy of every frame).
        if case .animated(let animated) = image.storage {
            #expect(animated.bufferedBytes <= AnimatedImage.defaultMaxBufferBytes + 600 * 600 * 4)
        }
    }

    @Test(.enabled(if: TestData.has("TestAnimatedImageMemory.webp"), "../shared/testdata/sdwebimage/TestAnimatedImageMemory.webp is absent: skipped"))
    func animatedThumbnailsAndFirstFrame() throws {
        let data = try Self.load("TestAnimatedImageMemory.webp")
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(width: 150, height: 150)
        let thumbnail = try Self.coder.decode(data, options: options)
        #expect(thumbnail.pixelSize == PixelSize(width: 150, height: 150))
        #expect(thumbnail.frameCount == 16)
        #expect(thumbnail.metadata.contains(.thumbnail))
        var first = ImageDecodeOptions()
        first.firstFrameOnly = true
        let still = try Self.coder.decode(data, options: first)
        #expect(!still.isAnimated)
        #expect(Pixels.hash(still.bitmap) == 0x65E6_2DE2_5D04_5009)
    }

    @Test(.enabled(if: TestData.has("TestImageAnimated.webp"), "../shared/testdata/sdwebimage/TestImageAnimated.webp is absent: skipped"))
    func reencodingTheAnimatedFixtureKeepsItsFrames() throws {
        let source = try Self.coder.decode(try Self.load("TestImageAnimated.webp"))
        let data = try WebPCoder(lossless: true).encode(source, as: .webp)
        let again = try Self.coder.decode(data)
        #expect(again.frameCount == 8)
        #expect(again.loopCount == 0)
        #expect(again.frameDurations == source.frameDurations)
        for index in 0..<8 {
            // Lossless, but WebPAnimEncoder may change the color of fully transparent pixels.
            let a = try again.frame(at: index).bitmap, b = try source.frame(at: index).bitmap
            var worst = 0
            for y in stride(from: 0, to: 1050, by: 7) {
                for x in stride(from: 0, to: 990, by: 7) where a[x, y].alpha != 0 || b[x, y].alpha != 0 {
                    worst = max(worst, Pixels.difference(a[x, y], b[x, y]))
                }
            }
            #expect(worst == 0, "frame \(index)")
        }
    }
}
