import Foundation
import Testing
import WebImageTestSupport
import WebImageCoders
import WebImageCore

@Suite(.onOwnThreads) struct JPEGCoderTests {
    let coder = JPEGCoder()

    /// Every variant decodes to exactly the pixels Pillow decodes (same IDCT, same upsampling).
    @Test(arguments: JPEGFixtures.all)
    func fixtureDecodesLikeAnIndependentDecoder(_ fixture: JPEGFixture) throws {
        let image = try coder.decode(fixture.data)
        #expect(image.format == .jpeg)
        #expect(image.pixelSize == PixelSize(width: fixture.width, height: fixture.height))
        #expect(!image.hasAlpha)
        #expect(!image.metadata.contains(.incremental))
        #expect(PixelHash.of(image.bitmap) == fixture.expectedHash)
    }

    /// The fixtures hold a known gradient; every variant is close to it (a check that does not
    /// depend on any decoder).
    @Test(arguments: [JPEGFixtures.baseline420, JPEGFixtures.baseline422, JPEGFixtures.baseline444, JPEGFixtures.progressive,
                      JPEGFixtures.sampling440, JPEGFixtures.sampling411, JPEGFixtures.restart])
    func colorVariantsMatchTheKnownGradient(_ fixture: JPEGFixture) throws {
        let bitmap = try coder.decode(fixture.data).bitmap
        var worst = 0
        for y in 0..<24 {
            for x in 0..<40 {
                let pixel = bitmap[x, y]
                worst = max(worst, abs(Int(pixel.red) - x * 255 / 39), abs(Int(pixel.green) - y * 255 / 23), abs(Int(pixel.blue) - 96))
            }
        }
        #expect(worst <= 24, "\(fixture.name) differs from the source gradient by \(worst)")
    }

    @Test func cmykAndYCCKAreConvertedToRGB() throws {
        // Pillow's CMYK fixture is the gradient converted with C = 255 - R, K = 0, stored inverted.
        let bitmap = try coder.decode(JPEGFixtures.cmyk.data).bitmap
        let corner = bitmap[39, 23]
        #expect(abs(Int(corner.red) - 255) <= 8 && abs(Int(corner.green) - 255) <= 8 && abs(Int(corner.blue) - 96) <= 8, "\(corner)")
        // The YCCK fixture's inverted CMYK at (0, 0) is C = M = 0 ink, Y = 55 ink, K = 0: (255, 255, 200).
        let ycck = try coder.decode(JPEGFixtures.ycck.data).bitmap
        let origin = ycck[0, 0]
        #expect(abs(Int(origin.red) - 255) <= 6 && abs(Int(origin.green) - 255) <= 6 && abs(Int(origin.blue) - 200) <= 6, "\(origin)")
    }

    @Test func exifOrientationIsAppliedByDefault() throws {
        let fixture = JPEGFixtures.orientation6
        let upright = try coder.decode(fixture.data)
        #expect(upright.pixelSize == PixelSize(width: 16, height: 24))
        #expect(upright.metadata.contains(.orientationApplied))
        #expect(PixelHash.of(upright.bitmap) == fixture.expectedHash)
        // Stored 24x16 with red rising to the right; orientation 6 turns it 90° clockwise, so
        // red rises downwards and the stored top row (green 0) becomes the right column.
        #expect(upright.bitmap[15, 0].green < 30 && upright.bitmap[0, 0].green > 220)
        #expect(upright.bitmap[8, 23].red > 220 && upright.bitmap[8, 0].red < 30)
    }

    @Test func rawOrientationIsKeptOnRequest() throws {
        var options = ImageDecodeOptions()
        options.applyOrientation = false
        let raw = try coder.decode(JPEGFixtures.orientation6.data, options: options)
        #expect(raw.pixelSize == PixelSize(width: 24, height: 16))
        #expect(!raw.metadata.contains(.orientationApplied))
        #expect(PixelHash.of(raw.bitmap) == JPEGFixtures.orientation6.rawHash)
    }

    @Test(arguments: [(100, 100, 100, 60), (20, 20, 20, 12), (8, 8, 8, 5), (300, 300, 300, 180), (1000, 1000, 640, 384)])
    func thumbnailHasTheExactAspectFitSize(_ maxWidth: Int, _ maxHeight: Int, _ width: Int, _ height: Int) throws {
        let source = try coder.encode(TestImages.still(width: 640, height: 384), as: .jpeg)
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(width: maxWidth, height: maxHeight)
        let image = try coder.decode(source, options: options)
        #expect(image.pixelSize == PixelSize(width: width, height: height))
        #expect(image.metadata.contains(.thumbnail) == (width != 640))
    }

    @Test func thumbnailKeepsTheContent() throws {
        // A gradient shrunk to a thumbnail is still that gradient, sampled coarser.
        let full = TestImages.gradient(width: 640, height: 480)
        let data = try coder.encode(WebImage(bitmap: full), as: .jpeg, options: ImageEncodeOptions(compressionQuality: 0.95))
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(width: 64, height: 48)
        let thumbnail = try coder.decode(data, options: options).bitmap
        #expect(thumbnail.size == PixelSize(width: 64, height: 48))
        for (x, y) in [(5, 5), (32, 24), (58, 42)] {
            let expectedRed = (x * 10 + 5) * 255 / 639, expectedGreen = (y * 10 + 5) * 255 / 479
            #expect(abs(Int(thumbnail[x, y].red) - expectedRed) <= 10 && abs(Int(thumbnail[x, y].green) - expectedGreen) <= 10, "\(thumbnail[x, y]) at \(x),\(y)")
        }
    }

    @Test func thumbnailOfARotatedImageIsBoundedInUprightTerms() throws {
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(width: 8, height: 100)
        let image = try coder.decode(JPEGFixtures.orientation6.data, options: options)
        #expect(image.pixelSize == PixelSize(width: 8, height: 12))
        #expect(image.metadata.contains(.thumbnail) && image.metadata.contains(.orientationApplied))
    }

    @Test func scaleDownLimitShrinksLargeImages() throws {
        let data = try coder.encode(TestImages.still(width: 400, height: 200), as: .jpeg)
        var options = ImageDecodeOptions()
        options.scaleDownLimitBytes = 100 * 50 * 4
        let image = try coder.decode(data, options: options)
        #expect(image.pixelSize == PixelSize(width: 100, height: 50))
        #expect(image.metadata.contains(.thumbnail))
    }

    /// A tiny file whose SOF claims 60000 x 60000 fails at once, before any pixel allocation.
    @Test func decompressionBombIsRefusedFromTheHeader() throws {
        var bytes = [UInt8](JPEGFixtures.baseline420.data)
        let sof = try #require((0..<bytes.count - 1).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 })
        bytes[sof + 5] = 0xEA; bytes[sof + 6] = 0x60  // height 60000
        bytes[sof + 7] = 0xEA; bytes[sof + 8] = 0x60  // width 60000
        let error = try #require(throws: WebImageError.self) { try coder.decode(Data(bytes)) }
        #expect(error.code == .imageTooLarge)
        #expect(error.message.contains("60000x60000"))
    }

    @Test func pixelLimitIsConfigurable() throws {
        var options = ImageDecodeOptions()
        options.maxPixelCount = 40 * 24 - 1
        #expect(throws: WebImageError.self) { try coder.decode(JPEGFixtures.baseline420.data, options: options) }
        options.maxPixelCount = 40 * 24
        #expect(try coder.decode(JPEGFixtures.baseline420.data, options: options).pixelSize == PixelSize(width: 40, height: 24))
    }

    @Test func truncatedBaselineGivesAPartialImageWithTheMissingRowsTransparent() throws {
        let data = try coder.encode(TestImages.still(width: 64, height: 256), as: .jpeg)
        let image = try coder.decode(Data(data.prefix(data.count / 2)))
        #expect(image.metadata.contains(.incremental))
        #expect(image.pixelSize == PixelSize(width: 64, height: 256))
        #expect(image.bitmap[10, 0].alpha == 255)
        #expect(image.bitmap[10, 255].alpha == 0)
    }

    @Test func dataTruncatedInsideTheHeaderIsAnError() throws {
        let data = JPEGFixtures.baseline420.data
        let error = try #require(throws: WebImageError.self) { try coder.decode(Data(data.prefix(100))) }
        #expect(error.code == .badImageData)
        #expect(error.message.contains("truncated"))
    }

    @Test func garbageAfterTheSignatureIsBadImageData() throws {
        let error = try #require(throws: WebImageError.self) { try coder.decode(Data([0xFF, 0xD8, 0xFF, 0xE0] + [UInt8](repeating: 0x41, count: 64))) }
        #expect(error.code == .badImageData)
    }

    @Test func notJPEGIsRefused() {
        #expect(!coder.canDecode(Data([0x89, 0x50, 0x4E, 0x47])))
        #expect(throws: WebImageError.self) { try coder.decode(Data([0x89, 0x50, 0x4E, 0x47])) }
    }

    @Test func progressiveScansShowAsTheyArrive() throws {
        let source = TestImages.gradient(width: 96, height: 64)
        let data = try JPEGCoder(progressiveEncoding: true).encode(WebImage(bitmap: source), as: .jpeg, options: ImageEncodeOptions(compressionQuality: 0.9))
        let decoder = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
        #expect(decoder.currentImage() == nil)
        decoder.update(data: Data(data.prefix(20)), finished: false)
        #expect(decoder.currentImage() == nil)
        var differences: [Int] = []
        for fraction in [0.5, 0.75] {
            decoder.update(data: Data(data.prefix(Int(Double(data.count) * fraction))), finished: false)
            let partial = try #require(decoder.currentImage())
            #expect(partial.metadata.contains(.incremental))
            #expect(partial.pixelSize == source.size)
            differences.append(PixelHash.maxDifference(partial.bitmap, source))
        }
        decoder.update(data: data, finished: true)
        let final = try #require(decoder.currentImage())
        #expect(!final.metadata.contains(.incremental))
        let finalDifference = PixelHash.maxDifference(final.bitmap, source)
        #expect(finalDifference <= 16)
        // Every row has pixels at every stage (scans refine the whole image).
        #expect(differences.allSatisfy { $0 < 255 })
    }

    @Test func incrementalDecoderReusesItsImageUntilNewDataComes() throws {
        let data = JPEGFixtures.baseline420.data
        let decoder = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
        decoder.update(data: data, finished: true)
        let first = try #require(decoder.currentImage())
        let second = try #require(decoder.currentImage())
        #expect(first.bitmap == second.bitmap)
        #expect(coder.canIncrementallyDecode(Data([0xFF])))
        #expect(!coder.canIncrementallyDecode(Data([0x89])))
    }

    @Test func encodingFlattensAlphaOntoTheBackgroundColor() throws {
        let clear = try Bitmap(width: 16, height: 16, fill: RGBAColor(red: 0, green: 0, blue: 0, alpha: 0))
        var options = ImageEncodeOptions()
        options.backgroundColor = RGBAColor(red: 255, green: 0, blue: 0)
        let image = try coder.decode(try coder.encode(WebImage(bitmap: clear), as: .jpeg, options: options))
        let pixel = image.bitmap[8, 8]
        #expect(pixel.red > 240 && pixel.green < 15 && pixel.blue < 15 && pixel.alpha == 255, "\(pixel)")
        // Default background: white.
        let white = try coder.decode(try coder.encode(WebImage(bitmap: clear), as: .jpeg)).bitmap[8, 8]
        #expect(white.red > 240 && white.green > 240 && white.blue > 240)
    }

    @Test func qualityTradesSizeForFidelity() throws {
        let image = WebImage(bitmap: TestImages.gradient(width: 128, height: 96, seed: 30))
        let low = try coder.encode(image, as: .jpeg, options: ImageEncodeOptions(compressionQuality: 0.1))
        let high = try coder.encode(image, as: .jpeg, options: ImageEncodeOptions(compressionQuality: 1))
        #expect(low.count < high.count)
        let lowError = PixelHash.maxDifference(try coder.decode(low).bitmap, image.bitmap)
        let highError = PixelHash.maxDifference(try coder.decode(high).bitmap, image.bitmap)
        #expect(highError < lowError)
    }

    @Test func maxFileSizeLowersTheQuality() throws {
        let image = WebImage(bitmap: TestImages.gradient(width: 128, height: 96, seed: 30))
        let unbounded = try coder.encode(image, as: .jpeg)
        var options = ImageEncodeOptions()
        options.maxFileSize = unbounded.count / 2
        let bounded = try coder.encode(image, as: .jpeg, options: options)
        #expect(bounded.count <= unbounded.count / 2)
    }

    @Test func maxPixelSizeDownsizesBeforeEncoding() throws {
        var options = ImageEncodeOptions()
        options.maxPixelSize = PixelSize(width: 50, height: 50)
        let data = try coder.encode(TestImages.still(width: 200, height: 100), as: .jpeg, options: options)
        #expect(try coder.decode(data).pixelSize == PixelSize(width: 50, height: 25))
    }

    @Test func progressiveEncodingWritesAProgressiveFile() throws {
        let data = try JPEGCoder(progressiveEncoding: true).encode(TestImages.still(), as: .jpeg)
        // SOF2 marks a progressive frame.
        let bytes = [UInt8](data)
        #expect((0..<bytes.count - 1).contains { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC2 })
        #expect(try coder.decode(data).pixelSize == PixelSize(width: 16, height: 12))
    }

    @Test func otherFormatsAreNotEncoded() {
        #expect(!coder.canEncode(to: .png))
        let error = #expect(throws: WebImageError.self) { try coder.encode(TestImages.still(), as: .png) }
        #expect(error?.code == .unsupportedFormat)
    }
}
