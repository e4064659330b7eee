import Foundation
import Testing
import WebImageTestSupport
@testable import WebImageCoders
import WebImageCore

/// ``ImageHeaderReader`` on the built-in coders: the properties from the headers are the ones a
/// decode reports, for every public test image and fixture; hostile files are described
/// without decoding; ``CodersManager`` forwards to the coder that would decode.
@Suite(.onOwnThreads) struct ImageHeaderReaderTests {
    let coders = CodersManager(BuiltInCoders.all)

    /// Checks that `data`'s header properties match its decode (when it decodes cleanly).
    func expectPropertiesMatchTheDecode(_ data: Data, _ name: String, alpha: Bool = true) throws {
        guard let image = try? coders.decode(data), !image.metadata.contains(.incremental) else { return }
        let properties = try coders.readProperties(of: data)
        #expect(properties.format == image.format, "\(name)")
        #expect(properties.orientedPixelSize == image.pixelSize, "\(name)")
        #expect(properties.frameCount == image.frameCount, "\(name)")
        if image.isAnimated { #expect(properties.loopCount == image.loopCount, "\(name)") }
        #expect(properties.frameDurations == image.statedFrameDurations, "\(name)")
        if alpha { #expect(properties.hasAlpha == image.hasAlpha, "\(name)") }
    }

    @Test func everyPublicTestImageIsDescribedAsItDecodes() throws {
        var checked = 0
        for directory in [TestData.sdWebImage, TestData.pngSuite] {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { continue }
            for name in names.sorted() where TestData.isSupported(name) {
                try expectPropertiesMatchTheDecode(try Data(contentsOf: directory.appendingPathComponent(name)), name)
                checked += 1
            }
        }
        #expect(checked > 0 || !(TestData.hasSDWebImage || TestData.hasPNGSuite))
    }

    @Test func everyJPEGFixtureIncludingOrientationIsDescribedAsItDecodes() throws {
        for fixture in JPEGFixtures.all {
            try expectPropertiesMatchTheDecode(fixture.data, fixture.name)
            let properties = try JPEGCoder().readProperties(of: fixture.data)
            #expect(properties.pixelSize == PixelSize(width: fixture.rawWidth, height: fixture.rawHeight), "\(fixture.name)")
        }
        #expect(try JPEGCoder().readProperties(of: JPEGFixtures.orientation6.data).orientation == 6)
    }

    @Test func generatedAnimationsAndStillsAreDescribedAsTheyDecode() throws {
        var gif = GIFCoderTests.Builder(width: 4, height: 3, globalPalette: GIFCoderTests.palette)
        gif.loop(2)
        gif.loop(5)  // the first loop extension wins
        gif.control(disposal: 0, delay: 7, transparent: nil)
        gif.image(x: 0, y: 0, width: 4, height: 3, indices: Array(repeating: 1, count: 12))
        gif.control(disposal: 2, delay: 0, transparent: 0)
        gif.image(x: 1, y: 1, width: 2, height: 1, indices: [0, 2])
        gif.end()
        try expectPropertiesMatchTheDecode(gif.data, "gif")
        #expect(try GIFCoder().readProperties(of: gif.data).loopCount == 2)
        try expectPropertiesMatchTheDecode(AnimationBudgetTests.apng(width: 5, height: 4, frames: 3, valid: true), "apng")
        let bmp = BMPCoderTests.bmp(width: 2, height: 2, bits: 24, pixels: [UInt8](repeating: 9, count: 16))
        try expectPropertiesMatchTheDecode(bmp, "bmp")
        for image in [TestImages.still(width: 7, height: 5), TestImages.animated(frames: 3, width: 6, height: 4)] {
            for coder in BuiltInCoders.all where coder.canEncode(to: .png) || coder.canEncode(to: .gif) {
                let format: ImageFormat = coder.canEncode(to: .png) ? .png : .gif
                try expectPropertiesMatchTheDecode(try coder.encode(image, as: format), "\(format) \(image.frameCount)")
            }
        }
    }

    /// The bombs: described in full, with the limit a decode would hit, nothing decoded.
    @Test func hostileFilesAreDescribedWithTheRefusalADecodeWouldGive() throws {
        let gif = AnimationBudgetTests.gif(width: 10000, height: 10000, frames: 8)
        let gifProperties = try coders.readProperties(of: gif)
        #expect(gifProperties.pixelSize == PixelSize(width: 10000, height: 10000))
        #expect(gifProperties.frameCount == 8)
        #expect(gifProperties.decodeLimitError()?.code == .imageTooLarge)
        #expect(throws: WebImageError.self) { try coders.decode(gif) }

        let apng = AnimationBudgetTests.apng(width: 8192, height: 8192, frames: 60)
        let apngProperties = try coders.readProperties(of: apng)
        #expect(apngProperties.frameCount == 60)
        #expect(apngProperties.frameDurations.count == 60)
        #expect(apngProperties.loopCount == 0)
        // Each frame is over the 50 MP default; with that raised, the per-image budget refuses it.
        #expect(apngProperties.decodeLimitError()?.message.contains("8192x8192 is over the limit of 50000000 pixels per frame") == true)
        var raised = ImageDecodeOptions()
        raised.maxPixelCount = 1 << 28
        #expect(apngProperties.decodeLimitError(options: raised)?.message.contains("60 frames of 8192x8192") == true)

        let many = AnimationBudgetTests.gif(width: 2, height: 2, frames: 20_000)
        let manyProperties = try coders.readProperties(of: many)
        #expect(manyProperties.frameCount == 20_000)
        #expect(manyProperties.decodeLimitError()?.message.contains("limit of 10000 frames") == true)

        var huge = [UInt8](BMPCoderTests.bmp(width: 2, height: 2, bits: 24, pixels: [UInt8](repeating: 9, count: 16)))
        huge.replaceSubrange(18..<26, with: BMPCoderTests.le32(60000) + BMPCoderTests.le32(60000))
        let bmpProperties = try coders.readProperties(of: Data(huge))
        #expect(bmpProperties.pixelSize == PixelSize(width: 60000, height: 60000))
        #expect(bmpProperties.decodeLimitError()?.message.contains("per frame") == true)
    }

    @Test func decodeLimitErrorNamesEachLimit() {
        let properties = ImageProperties(format: .gif, pixelSize: PixelSize(width: 10, height: 10), frameCount: 4, loopCount: 0, hasAlpha: false)
        var options = ImageDecodeOptions()
        #expect(properties.decodeLimitError(options: options) == nil)
        options.maxPixelCount = 99
        #expect(properties.decodeLimitError(options: options)?.message == "gif image of 10x10 is over the limit of 99 pixels per frame")
        options = ImageDecodeOptions()
        options.maxFrameCount = 3
        #expect(properties.decodeLimitError(options: options)?.message == "gif animation of 4 frames is over the limit of 3 frames")
        options.firstFrameOnly = true
        #expect(properties.decodeLimitError(options: options) == nil)
        options = ImageDecodeOptions()
        options.maxTotalPixelCount = 399
        #expect(properties.decodeLimitError(options: options)?.message == "gif image of 4 frames of 10x10 (400 pixels in all) is over the limit of 399 pixels per image")
        options.maxTotalPixelCount = 400
        #expect(properties.decodeLimitError(options: options) == nil)
    }

    @Test func corruptHeadersAreBadImageData() throws {
        for (coder, data) in [(JPEGCoder() as any ImageHeaderReader, Data([0xFF, 0xD8, 0xFF, 0xD9])),
                              (PNGCoder(), Data(PNGFile.signature + [0, 0, 0, 13])),
                              (GIFCoder(), Data("GIF89a".utf8) + [1, 0, 1, 0, 0, 0, 0, 0x3B]),
                              (BMPCoder(), Data([0x42, 0x4D, 0, 0]))] {
            let error = try #require(throws: WebImageError.self) { try coder.readProperties(of: data) }
            #expect(error.code == .badImageData, "\(error)")
        }
    }

    /// A coder without the capability that would decode the data hides the built-in reader.
    @Test func theManagerAsksTheCoderThatWouldDecode() throws {
        struct ClaimsPNG: ImageCoder {
            func canDecode(_ data: Data) -> Bool { PNGCoder().canDecode(data) }
            func decode(_ data: Data, options: ImageDecodeOptions) throws -> WebImage { try PNGCoder().decode(data, options: options) }
            func canEncode(to format: ImageFormat) -> Bool { false }
            func encode(_ image: WebImage, as format: ImageFormat, options: ImageEncodeOptions) throws -> Data { Data() }
        }
        let png = try PNGCoder().encode(TestImages.still(width: 3, height: 2), as: .png)
        #expect(coders.headerReader(for: png) is PNGCoder)
        #expect(try coders.readProperties(of: png).pixelSize == PixelSize(width: 3, height: 2))
        let manager = CodersManager(BuiltInCoders.all + [ClaimsPNG()])
        #expect(manager.headerReader(for: png) == nil)
        let error = try #require(throws: WebImageError.self) { try manager.readProperties(of: png) }
        #expect(error.code == .unsupportedFormat)
        #expect(coders.headerReader(for: Data("text".utf8)) == nil)
    }
}
