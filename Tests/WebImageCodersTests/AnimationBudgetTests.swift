import Foundation
import Testing
import WebImageTestSupport
import WebImageCoders
import WebImageCore

/// The budget per image (``ImageDecodeOptions/maxTotalPixelCount``, ``ImageDecodeOptions/maxFrameCount``)
/// and per frame (``ImageDecodeOptions/maxPixelCount``): hostile animations, small on disk,
/// whose frames x source pixels reach gigabytes are refused from their headers, thumbnails
/// included (every frame's data is decompressed in full); animations within the budget still
/// decode.
@Suite(.onOwnThreads) struct AnimationBudgetTests {
    typealias Builder = GIFCoderTests.Builder

    /// A GIF whose screen is `width` x `height` with `frames` frames of one pixel each (tiny LZW data).
    static func gif(width: Int, height: Int, frames: Int) -> Data {
        var gif = Builder(width: width, height: height, globalPalette: GIFCoderTests.palette)
        for index in 0..<frames {
            gif.control(disposal: 0, delay: 10, transparent: nil)
            gif.image(x: 0, y: 0, width: 1, height: 1, indices: [index % 4])
        }
        gif.end()
        return gif.data
    }

    /// An APNG of a `width` x `height` canvas and `frames` frames: the default image (frame 0,
    /// covering the canvas) and 1x1 frames after it. The image data is not a valid stream for
    /// the canvas: the file is only good for checks made before decoding, unless `valid`.
    static func apng(width: Int, height: Int, frames: Int, valid: Bool = false) -> Data {
        var png = PNGBuilder()
        png.header(width: width, height: height, bitDepth: 8, colorType: 6)
        png.chunk("acTL", PNGBuilder.be32(frames) + PNGBuilder.be32(0))
        func control(width: Int, height: Int, sequence: Int) -> [UInt8] {
            PNGBuilder.be32(sequence) + PNGBuilder.be32(width) + PNGBuilder.be32(height)
                + PNGBuilder.be32(0) + PNGBuilder.be32(0) + PNGBuilder.be16(1) + PNGBuilder.be16(10) + [0, 0]
        }
        var sequence = 0
        png.chunk("fcTL", control(width: width, height: height, sequence: sequence))
        sequence += 1
        let canvasRows = valid ? Array(repeating: Array(repeating: [255, 0, 0, 255], count: width).flatMap { $0 }, count: height) : [[255, 0, 0, 255]]
        png.imageData(PNGBuilder.rawRows(canvasRows, bitDepth: 8))
        for _ in 1..<frames {
            png.chunk("fcTL", control(width: 1, height: 1, sequence: sequence))
            png.chunk("fdAT", PNGBuilder.be32(sequence + 1) + PNGBuilder.zlibStored(PNGBuilder.rawRows([[0, 255, 0, 255]], bitDepth: 8)))
            sequence += 2
        }
        png.end()
        return png.data
    }

    // MARK: - Defaults

    @Test func theDefaultsAreFiftyMegapixelsPerFrameAHundredPerImageAndTenThousandFrames() {
        let options = ImageDecodeOptions()
        #expect(options.maxPixelCount == 50_000_000)
        #expect(options.maxTotalPixelCount == 100_000_000)
        #expect(options.maxFrameCount == 10_000)
        // A 48 MP photo (8000x6000) is one frame within both limits; 16000x16000 is not.
        #expect(8000 * 6000 <= options.maxPixelCount)
        #expect(16000 * 16000 > options.maxPixelCount)
    }

    // MARK: - GIF

    @Test func aGIFOfEightFramesOfTenThousandSquaredIsRefusedFromItsHeaders() throws {
        let data = Self.gif(width: 10000, height: 10000, frames: 8)
        #expect(data.count < 1000)
        // Each frame is over the 50 MP frame limit.
        let error = try #require(throws: WebImageError.self) { try GIFCoder().decode(data) }
        #expect(error.code == .imageTooLarge)
        #expect(error.message.contains("10000x10000"))
        #expect(error.message.contains("limit of 50000000 pixels"), "\(error.message)")
        // Within the frame limit, 8 frames are over the 100 MP image budget.
        var options = ImageDecodeOptions()
        options.maxPixelCount = 100_000_000
        let total = try #require(throws: WebImageError.self) { try GIFCoder().decode(data, options: options) }
        #expect(total.code == .imageTooLarge)
        #expect(total.message.contains("8 frames of 10000x10000"), "\(total.message)")
        #expect(total.message.contains("limit of 100000000 pixels per image"), "\(total.message)")
        // The provider refuses too (nothing decoded, nothing allocated).
        let providerError = try #require(throws: WebImageError.self) {
            try GIFCoder().makeAnimatedImageProvider(for: data, options: ImageDecodeOptions())
        }
        #expect(providerError.code == .imageTooLarge)
    }

    @Test func aGIFWithinTheBudgetDecodesAndOneOverIsRefused() throws {
        let data = Self.gif(width: 10, height: 10, frames: 8)
        var options = ImageDecodeOptions()
        options.maxTotalPixelCount = 8 * 10 * 10
        let image = try GIFCoder().decode(data, options: options)
        #expect(image.frameCount == 8)
        #expect(try image.frame(at: 7).bitmap.size == PixelSize(width: 10, height: 10))
        options.maxTotalPixelCount = 8 * 10 * 10 - 1
        let error = try #require(throws: WebImageError.self) { try GIFCoder().decode(data, options: options) }
        #expect(error.code == .imageTooLarge)
        // The first frame only is one frame's pixels.
        options.maxTotalPixelCount = 10 * 10
        options.firstFrameOnly = true
        #expect(try GIFCoder().decode(data, options: options).bitmap.size == PixelSize(width: 10, height: 10))
    }

    @Test func aGIFThumbnailCountsItsSourcePixels() throws {
        let data = Self.gif(width: 100, height: 100, frames: 8)
        var options = ImageDecodeOptions()
        options.maxTotalPixelCount = 8 * 100 * 100 - 1
        options.thumbnailPixelSize = PixelSize(width: 10, height: 10)
        let refused = try #require(throws: WebImageError.self) { try GIFCoder().decode(data, options: options) }
        #expect(refused.code == .imageTooLarge)
        #expect(refused.message.contains("8 frames of 100x100"), "\(refused.message)")
        options.maxTotalPixelCount = 8 * 100 * 100
        let thumbnail = try GIFCoder().decode(data, options: options)
        #expect(thumbnail.frameCount == 8)
        #expect(try thumbnail.frame(at: 3).bitmap.size == PixelSize(width: 10, height: 10))
        options.maxPixelCount = 100 * 100 - 1
        let error = try #require(throws: WebImageError.self) { try GIFCoder().decode(data, options: options) }
        #expect(error.code == .imageTooLarge)
        #expect(error.message.contains("100x100"))
    }

    @Test func aGIFOfMoreFramesThanTheLimitIsRefused() throws {
        let data = Self.gif(width: 2, height: 2, frames: 5)
        var options = ImageDecodeOptions()
        options.maxFrameCount = 4
        let error = try #require(throws: WebImageError.self) { try GIFCoder().decode(data, options: options) }
        #expect(error.code == .imageTooLarge)
        #expect(error.message.contains("5 or more frames"))
        #expect(error.message.contains("limit of 4 frames"))
        options.maxFrameCount = 5
        #expect(try GIFCoder().decode(data, options: options).frameCount == 5)
        options.maxFrameCount = 1
        options.firstFrameOnly = true
        #expect(try GIFCoder().decode(data, options: options).frameCount == 1)
    }

    /// The brief's case: 3 frames of 6000x6000 (108 MP) asked as a 100x100 thumbnail are over
    /// the 100 MP default; a request that raises the budget through its context gets the
    /// thumbnail (made at thumbnail size: no 6000x6000 canvas).
    @Test func aThumbnailOfThreeFramesOf6000SquaredIsRefusedUnlessTheContextRaisesTheBudget() throws {
        let data = Self.gif(width: 6000, height: 6000, frames: 3)
        let thumbnail = PixelSize(width: 100, height: 100)
        let refused = try #require(throws: WebImageError.self) {
            try GIFCoder().decode(data, options: ImageDecodeOptions(options: [], context: WebImageContext { $0.imageThumbnailPixelSize = thumbnail }))
        }
        #expect(refused.code == .imageTooLarge)
        #expect(refused.message.contains("3 frames of 6000x6000 (108000000 source pixels in all"), "\(refused.message)")
        let options = ImageDecodeOptions(options: [], context: WebImageContext {
            $0.imageThumbnailPixelSize = thumbnail
            $0.imageMaxTotalPixelCount = 108_000_000
        })
        let image = try GIFCoder().decode(data, options: options)
        #expect(image.frameCount == 3)
        #expect(image.metadata.contains(.thumbnail))
        #expect(try image.frame(at: 2).bitmap.size == thumbnail)
    }

    // MARK: - APNG

    @Test func anAPNGOfSixtyFramesOf8192SquaredIsRefusedFromItsHeaders() throws {
        let data = Self.apng(width: 8192, height: 8192, frames: 60)
        #expect(data.count < 10_000)
        let error = try #require(throws: WebImageError.self) { try PNGCoder().decode(data) }
        #expect(error.code == .imageTooLarge)
        #expect(error.message.contains("8192x8192"))
        #expect(error.message.contains("limit of 50000000 pixels"), "\(error.message)")
        var options = ImageDecodeOptions()
        options.maxPixelCount = 8192 * 8192
        let total = try #require(throws: WebImageError.self) { try PNGCoder().decode(data, options: options) }
        #expect(total.message.contains("60 frames of 8192x8192"), "\(total.message)")
        #expect(total.message.contains("limit of 100000000 pixels per image"), "\(total.message)")
        options.thumbnailPixelSize = PixelSize(width: 100, height: 100)
        #expect(throws: WebImageError.self) { try PNGCoder().decode(data, options: options) }
    }

    @Test func anAPNGWithinTheBudgetDecodesAndOneOverIsRefused() throws {
        let data = Self.apng(width: 4, height: 4, frames: 6, valid: true)
        var options = ImageDecodeOptions()
        options.maxTotalPixelCount = 6 * 4 * 4
        let image = try PNGCoder().decode(data, options: options)
        #expect(image.frameCount == 6)
        #expect(try image.frame(at: 5).bitmap.size == PixelSize(width: 4, height: 4))
        options.maxTotalPixelCount = 6 * 4 * 4 - 1
        #expect(throws: WebImageError.self) { try PNGCoder().decode(data, options: options) }
        // A thumbnail counts the source pixels too.
        options.thumbnailPixelSize = PixelSize(width: 2, height: 2)
        #expect(throws: WebImageError.self) { try PNGCoder().decode(data, options: options) }
        options.maxTotalPixelCount = 6 * 4 * 4
        #expect(try PNGCoder().decode(data, options: options).frameCount == 6)
    }

    @Test func anAPNGOfMoreFramesThanTheLimitIsRefusedWhileParsing() throws {
        let data = Self.apng(width: 4, height: 4, frames: 6, valid: true)
        var options = ImageDecodeOptions()
        options.maxFrameCount = 5
        let error = try #require(throws: WebImageError.self) { try PNGCoder().decode(data, options: options) }
        #expect(error.code == .imageTooLarge)
        #expect(error.message.contains("6 or more frames"))
        #expect(error.message.contains("limit of 5 frames"))
        options.maxFrameCount = 6
        #expect(try PNGCoder().decode(data, options: options).frameCount == 6)
        options.maxFrameCount = 1
        options.firstFrameOnly = true
        #expect(try PNGCoder().decode(data, options: options).frameCount == 1)
    }

    // MARK: - Stills and context keys

    @Test func aStillCountsAsOneFrame() throws {
        let data = PNGBuilder.image(width: 10, height: 10, bitDepth: 8, colorType: 6,
                                    rows: Array(repeating: Array(repeating: [0, 0, 255, 255], count: 10).flatMap { $0 }, count: 10))
        var options = ImageDecodeOptions()
        options.maxTotalPixelCount = 99
        let error = try #require(throws: WebImageError.self) { try PNGCoder().decode(data, options: options) }
        #expect(error.code == .imageTooLarge)
        #expect(error.message.contains("1 frame of 10x10"))
        options.maxTotalPixelCount = 100
        #expect(try PNGCoder().decode(data, options: options).bitmap.size == PixelSize(width: 10, height: 10))
    }

    @Test func theContextKeysAreLaidOverTheDecodeOptions() throws {
        var base = ImageDecodeOptions()
        base.maxTotalPixelCount = 5000
        base.maxFrameCount = 50
        let underneath = ImageDecodeOptions(options: [], context: WebImageContext { $0.imageDecodeOptions = base })
        #expect(underneath.maxTotalPixelCount == 5000 && underneath.maxFrameCount == 50)
        let options = ImageDecodeOptions(options: [], context: WebImageContext {
            $0.imageDecodeOptions = base
            $0.imageMaxTotalPixelCount = 7 * 10 * 10 - 1
            $0.imageMaxFrameCount = 7
        })
        #expect(options.maxTotalPixelCount == 7 * 10 * 10 - 1)
        #expect(options.maxFrameCount == 7)
        let error = try #require(throws: WebImageError.self) {
            try GIFCoder().decode(Self.gif(width: 10, height: 10, frames: 7), options: options)
        }
        #expect(error.message.contains("pixels per image"))
        let frames = try #require(throws: WebImageError.self) {
            try GIFCoder().decode(Self.gif(width: 2, height: 2, frames: 8), options: options)
        }
        #expect(frames.message.contains("limit of 7 frames"))
    }
}
