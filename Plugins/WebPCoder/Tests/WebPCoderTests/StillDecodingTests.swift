import Foundation
import Testing
import WebImageTestSupport
import WebImageCore
import WebPCoder

/// Still images: pixels against values computed from the images the test encodes itself.
@Suite(.onOwnThreads) struct StillDecodingTests {
    let lossless = WebPCoder(lossless: true)
    let lossy = WebPCoder(lossless: false)

    @Test func losslessGivesBackEveryPixelIncludingColorUnderTransparentPixels() throws {
        // Alpha and color vary independently, so (x, y) -> a unique pixel; alpha 0 at x == 0.
        let source = Pixels.make(width: 40, height: 30) { x, y in
            RGBAColor(red: UInt8(x * 6), green: UInt8(y * 8), blue: UInt8((x * y) % 256), alpha: UInt8(x * 255 / 39))
        }
        let decoded = try lossless.decode(try lossless.encode(WebImage(bitmap: source), as: .webp))
        #expect(decoded.bitmap.bytes == source.bytes)
        #expect(decoded.hasAlpha)
        #expect(decoded.format == .webp)
        #expect(decoded.metadata == .decoded)
        #expect(!decoded.isAnimated)
    }

    @Test(arguments: [RGBAColor(red: 200, green: 100, blue: 50, alpha: 255), RGBAColor(red: 0, green: 0, blue: 0, alpha: 255), RGBAColor(red: 255, green: 255, blue: 255, alpha: 255)])
    func opaqueSolidColorsDecodeExactlyLosslessAndWithinTwoLossy(_ color: RGBAColor) throws {
        let image = WebImage(bitmap: TestImages.solid(color, width: 24, height: 18))
        let exact = try lossless.decode(try lossless.encode(image, as: .webp))
        #expect(exact.bitmap.bytes == image.bitmap.bytes)
        #expect(!exact.hasAlpha, "an opaque source is encoded without alpha")
        let approximate = try lossy.decode(try lossy.encode(image, as: .webp))
        #expect(approximate.pixelSize == image.pixelSize)
        // A flat color goes through RGB -> YUV -> RGB rounding only.
        #expect(Pixels.maxDifference(approximate.bitmap, image.bitmap) <= 2)
        #expect(approximate.bitmap.isOpaque)
        #expect(!approximate.hasAlpha)
    }

    @Test func lossyKeepsAlphaExactlyAndVisibleColorsClose() throws {
        // Left half transparent-ish steps, right half opaque; colors flat per 8x8 block.
        let source = Pixels.make(width: 32, height: 16) { x, y in
            let alpha: UInt8 = x < 16 ? UInt8((x / 4) * 60 + 30) : 255
            return RGBAColor(red: y < 8 ? 220 : 30, green: 120, blue: x < 8 ? 40 : 200, alpha: alpha)
        }
        let decoded = try lossy.decode(try lossy.encode(WebImage(bitmap: source), as: .webp))
        #expect(decoded.hasAlpha)
        for y in 0..<16 {
            for x in 0..<32 {
                #expect(decoded.bitmap[x, y].alpha == source[x, y].alpha, "alpha at \(x),\(y)")
            }
        }
        // Away from block edges (where 4:2:0 chroma blurs), colors are close.
        for (x, y) in [(2, 2), (12, 3), (20, 4), (28, 12), (4, 13)] {
            #expect(Pixels.difference(decoded.bitmap[x, y], source[x, y], includeAlpha: false) <= 6, "pixel \(x),\(y)")
        }
    }

    @Test func thumbnailComesFromLibwebpScalingAtTheExactSize() throws {
        // A 64x48 gradient halved: libwebp's rescaler averages each 2x2 block.
        let source = Pixels.make(width: 64, height: 48, hasAlpha: false) { x, y in
            RGBAColor(red: UInt8(x * 4), green: UInt8(y * 5), blue: 90, alpha: 255)
        }
        let data = try lossless.encode(WebImage(bitmap: source), as: .webp)
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(width: 32, height: 32)
        let thumbnail = try lossless.decode(data, options: options)
        #expect(thumbnail.pixelSize == PixelSize(width: 32, height: 24))
        #expect(thumbnail.metadata == [.decoded, .thumbnail])
        var worst = 0
        for y in 0..<24 {
            for x in 0..<32 {
                let block = [source[2 * x, 2 * y], source[2 * x + 1, 2 * y], source[2 * x, 2 * y + 1], source[2 * x + 1, 2 * y + 1]]
                let expected = RGBAColor(
                    red: UInt8(block.map { Int($0.red) }.reduce(0, +) / 4),
                    green: UInt8(block.map { Int($0.green) }.reduce(0, +) / 4),
                    blue: 90, alpha: 255
                )
                worst = max(worst, Pixels.difference(thumbnail.bitmap[x, y], expected))
            }
        }
        #expect(worst <= 1, "the 2x2 box average differs by \(worst)")
    }

    @Test func thumbnailWithoutAspectRatioIsExactlyTheAskedSize() throws {
        let data = try lossless.encode(WebImage(bitmap: TestImages.solid(RGBAColor(red: 10, green: 200, blue: 30), width: 50, height: 20)), as: .webp)
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(width: 13, height: 17)
        options.preserveAspectRatio = false
        let thumbnail = try lossless.decode(data, options: options)
        #expect(thumbnail.pixelSize == PixelSize(width: 13, height: 17))
        // Scaling a flat color keeps it.
        #expect(Pixels.maxDifference(thumbnail.bitmap, TestImages.solid(RGBAColor(red: 10, green: 200, blue: 30), width: 13, height: 17)) <= 1)
    }

    @Test func scaledDecodingDoesNotBleedTheColorOfTransparentPixels() throws {
        // Left: transparent pixels whose hidden color is pure red; right: opaque green.
        let source = Pixels.make(width: 32, height: 8) { x, _ in
            x < 16 ? RGBAColor(red: 255, green: 0, blue: 0, alpha: 0) : RGBAColor(red: 0, green: 255, blue: 0, alpha: 255)
        }
        let data = try lossless.encode(WebImage(bitmap: source), as: .webp)
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(width: 5, height: 5)
        let thumbnail = try lossless.decode(data, options: options)
        #expect(thumbnail.pixelSize == PixelSize(width: 5, height: 1))
        for x in 0..<5 where thumbnail.bitmap[x, 0].alpha > 0 {
            #expect(thumbnail.bitmap[x, 0].red <= 2, "pixel \(x) is \(thumbnail.bitmap[x, 0]): red bled through")
        }
    }

    @Test func largerThumbnailThanTheImageDecodesFullSize() throws {
        let data = try lossless.encode(WebImage(bitmap: TestImages.gradient(width: 20, height: 10)), as: .webp)
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(width: 400, height: 400)
        let image = try lossless.decode(data, options: options)
        #expect(image.pixelSize == PixelSize(width: 20, height: 10))
        #expect(!image.metadata.contains(.thumbnail))
    }

    @Test func scaleDownLimitShrinksToTheByteBudget() throws {
        let data = try lossy.encode(WebImage(bitmap: TestImages.gradient(width: 100, height: 80)), as: .webp)
        var options = ImageDecodeOptions()
        options.scaleDownLimitBytes = 100 * 80 * 4 / 4  // a quarter of the pixels: half per side
        let image = try lossy.decode(data, options: options)
        #expect(image.pixelSize == options.targetPixelSize(for: PixelSize(width: 100, height: 80)))
        #expect(image.pixelSize == PixelSize(width: 50, height: 40))
        #expect(image.metadata.contains(.thumbnail))
    }

    @Test func scaleFactorIsCarried() throws {
        let data = try lossy.encode(TestImages.still(), as: .webp)
        var options = ImageDecodeOptions()
        options.scaleFactor = 2
        #expect(try lossy.decode(data, options: options).scale == 2)
    }

    @Test func pixelLimitIsCheckedFromTheHeader() throws {
        let data = try lossless.encode(WebImage(bitmap: TestImages.gradient(width: 37, height: 23)), as: .webp)
        var options = ImageDecodeOptions()
        options.maxPixelCount = 37 * 23 - 1
        let error = try #require(throws: WebImageError.self) { try lossless.decode(data, options: options) }
        #expect(error.code == .imageTooLarge)
        #expect(error.message.contains("37x23"))
        options.maxPixelCount = 37 * 23
        #expect(try lossless.decode(data, options: options).pixelSize == PixelSize(width: 37, height: 23))
    }

    @Test func headerClaimingAHugeCanvasIsRefusedBeforeAnyAllocation() throws {
        // A VP8X header claiming a 65536 x 40000 canvas (2.6 gigapixels: under libwebp's own
        // 2^32 bound, over the default limit of 2^28), and no image data.
        var bytes = Array("RIFF".utf8) + [22, 0, 0, 0] + Array("WEBPVP8X".utf8) + [10, 0, 0, 0]
        bytes += [0, 0, 0, 0] + [0xFF, 0xFF, 0x00] + [0x3F, 0x9C, 0x00]
        let error = try #require(throws: WebImageError.self) { try lossless.decode(Data(bytes)) }
        #expect(error.code == .imageTooLarge, "\(error)")
        #expect(error.message.contains("65536x40000"))
        // Under a limit it passes, then the missing data is reported.
        var generous = ImageDecodeOptions()
        generous.maxPixelCount = Int.max
        let truncated = try #require(throws: WebImageError.self) { try lossless.decode(Data(bytes), options: generous) }
        #expect(truncated.code == .badImageData)
        #expect(truncated.message.contains("truncated"), "\(truncated.message)")
        // A lossless header claiming 16383 x 16383 (268 megapixels), checked against a lower limit.
        let vp8l = try lossless.encode(WebImage(bitmap: TestImages.solid(.white, width: 1, height: 1)), as: .webp)
        var crafted = [UInt8](vp8l)
        // VP8L header: signature 0x2F at 20, then 14 bits width-1, 14 bits height-1.
        let bits: UInt32 = 16382 | (16382 << 14) | (UInt32(crafted[24] >> 4) << 28)
        crafted[21] = UInt8(bits & 0xFF); crafted[22] = UInt8((bits >> 8) & 0xFF)
        crafted[23] = UInt8((bits >> 16) & 0xFF); crafted[24] = UInt8((bits >> 24) & 0xFF)
        var options = ImageDecodeOptions()
        options.maxPixelCount = 1 << 24
        let large = try #require(throws: WebImageError.self) { try lossless.decode(Data(crafted), options: options) }
        #expect(large.code == .imageTooLarge, "\(large)")
        #expect(large.message.contains("16383x16383"))
    }

    @Test func truncatedDataSaysTruncated() throws {
        let data = try lossless.encode(WebImage(bitmap: Pixels.busy(width: 40, height: 40)), as: .webp)
        for length in [12, 20, 30, data.count / 2, data.count - 1] {
            let error = try #require(throws: WebImageError.self) { try lossless.decode(data.prefix(length)) }
            #expect(error.code == .badImageData)
            #expect(error.message.contains("truncated") || error.message.contains("corrupt"), "\(length): \(error.message)")
        }
        let half = try #require(throws: WebImageError.self) { try lossless.decode(data.prefix(data.count / 2)) }
        #expect(half.message.contains("truncated"), "\(half.message)")
    }

    @Test func corruptDataSaysCorrupt() throws {
        let data = try lossy.encode(WebImage(bitmap: Pixels.busy(width: 64, height: 64)), as: .webp)
        var corrupt = [UInt8](data)
        // Break the VP8 frame header's start code (9D 01 2A at byte 23 of a simple lossy file).
        #expect(Pixels.fourCC(data, at: 12) == "VP8 ")
        corrupt[23] ^= 0xFF
        let error = try #require(throws: WebImageError.self) { try lossy.decode(Data(corrupt)) }
        #expect(error.code == .badImageData)
        #expect(error.message.contains("corrupt"), "\(error.message)")
    }

    @Test(arguments: [Data(), Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0, 0]), Data("RIFF\u{0}\u{0}\u{0}\u{0}WAVEfmt ".utf8)])
    func dataThatIsNotWebPIsRefused(_ data: Data) throws {
        #expect(!lossless.canDecode(data))
        let error = try #require(throws: WebImageError.self) { try lossless.decode(data) }
        #expect(error.code == .badImageData)
        #expect(error.message.contains("not WebP"))
    }

    @Test func canDecodeTheSignatureOnlyAndSniffingAgrees() throws {
        let still = try lossy.encode(TestImages.still(), as: .webp)
        let animated = try lossy.encode(TestImages.animated(), as: .webp)
        #expect(lossy.canDecode(still) && lossy.canDecode(animated))
        #expect(ImageFormat.detectDetails(still) == ImageFormatDetection(format: .webp, isAnimated: false))
        #expect(ImageFormat.detectDetails(animated) == ImageFormatDetection(format: .webp, isAnimated: true))
    }

    @Test func anAnimatedProviderOverAStillHasOneFrame() throws {
        let data = try lossless.encode(WebImage(bitmap: TestImages.gradient(width: 9, height: 7)), as: .webp)
        let provider = try lossless.makeAnimatedImageProvider(for: data, options: ImageDecodeOptions())
        #expect(provider.frameCount == 1)
        #expect(provider.loopCount == nil)
        #expect(provider.duration(at: 0) == 0)
        #expect(try provider.frame(at: 0).bytes == TestImages.gradient(width: 9, height: 7).bytes)
    }
}
