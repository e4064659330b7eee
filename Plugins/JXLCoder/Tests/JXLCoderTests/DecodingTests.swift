import Foundation
import Testing
import WebImageTestSupport
import WebImageCore
import JXLCoder

/// Stills: alpha, limits checked from the basic info, thumbnails, orientation, hostile input.
@Suite(.onOwnThreads) struct DecodingTests {
    static let coder = JXLCoder(lossless: true)

    @Test(arguments: [false, true])
    func stillWithAndWithoutAlpha(_ alpha: Bool) throws {
        let source = try Pictures.detailed(width: 70, height: 50, alpha: alpha)
        let data = try Self.coder.encode(WebImage(bitmap: source), as: .jpegXL)
        #expect(ImageFormat.detect(data) == .jpegXL)
        let image = try Self.coder.decode(data)
        #expect(image.format == .jpegXL)
        #expect(image.hasAlpha == alpha)
        #expect(image.frameCount == 1 && image.loopCount == nil)
        #expect(image.metadata == .decoded)
        #expect(image.bitmap.bytes == source.bytes)
    }

    /// `maxPixelCount` is checked at the basic info: one pixel under the image's count refuses it.
    @Test func pixelLimit() throws {
        let data = try Self.coder.encode(WebImage(bitmap: try Pictures.detailed(width: 40, height: 30)), as: .jpegXL)
        var options = ImageDecodeOptions()
        options.maxPixelCount = 40 * 30
        #expect(try Self.coder.decode(data, options: options).pixelSize == PixelSize(width: 40, height: 30))
        options.maxPixelCount = 40 * 30 - 1
        let error = try #require(throws: WebImageError.self) { try Self.coder.decode(data, options: options) }
        #expect(error.code == .imageTooLarge)
        #expect(error.message.contains("40x30") || error.message.contains("\(PixelSize(width: 40, height: 30))"))
    }

    /// The per-image budget applies to a still's decoded size: a thumbnail fits where the full
    /// image does not.
    @Test func totalPixelBudget() throws {
        let data = try Self.coder.encode(WebImage(bitmap: try Pictures.detailed(width: 40, height: 30)), as: .jpegXL)
        var options = ImageDecodeOptions()
        options.maxTotalPixelCount = 1000
        #expect(throws: WebImageError.self) { try Self.coder.decode(data, options: options) }
        options.thumbnailPixelSize = PixelSize(width: 20, height: 20)
        #expect(throws: WebImageError.self) { try Self.coder.decode(data, options: options) }
        options.maxTotalPixelCount = 40 * 30
        #expect(try Self.coder.decode(data, options: options).pixelSize == PixelSize(width: 20, height: 15))
    }

    /// A header claiming 2^30 x 2^30 pixels, with no data after it: refused at the basic info,
    /// before any buffer (the default limits).
    @Test func hugeDeclaredSize() throws {
        let data = HandMade.hugeHeader(side: 1 << 30)
        #expect(Self.coder.canDecode(data))
        let error = try #require(throws: WebImageError.self) { try Self.coder.decode(data) }
        #expect(error.code == .imageTooLarge, "\(error)")
        #expect(throws: WebImageError.self) { try Self.coder.makeAnimatedImageProvider(for: data, options: ImageDecodeOptions()) }
        let decoder = Self.coder.makeIncrementalDecoder(options: ImageDecodeOptions())
        decoder.update(data: data, finished: false)
        #expect(decoder.currentImage() == nil)
    }

    /// A header claiming a size under the limit, then nothing: truncated, not a crash.
    @Test func headerWithoutPixels() throws {
        let error = try #require(throws: WebImageError.self) { try Self.coder.decode(HandMade.hugeHeader(side: 100, padding: 0)) }
        #expect(error.code == .badImageData, "\(error)")
    }

    /// Every prefix of a small file, and garbage after the signature: a `WebImageError`.
    @Test func truncatedAndGarbage() throws {
        let data = try Self.coder.encode(WebImage(bitmap: try Pictures.detailed(width: 30, height: 20, alpha: true)), as: .jpegXL)
        for length in 0..<data.count {
            #expect(throws: WebImageError.self, "\(length) bytes") { try Self.coder.decode(data.prefix(length)) }
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<50 {
            let garbage = Data([0xFF, 0x0A] + (0..<200).map { _ in UInt8.random(in: 0...255, using: &generator) })
            do { _ = try Self.coder.decode(garbage) } catch is WebImageError {}
        }
        #expect(!Self.coder.canDecode(Data([0x89, 0x50, 0x4E, 0x47])))
        #expect(!Self.coder.canDecode(Data()))
    }

    @Test func thumbnail() throws {
        let source = try Pictures.detailed(width: 200, height: 100)
        let data = try Self.coder.encode(WebImage(bitmap: source), as: .jpegXL)
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(width: 50, height: 50)
        let thumbnail = try Self.coder.decode(data, options: options)
        #expect(thumbnail.pixelSize == PixelSize(width: 50, height: 25))
        #expect(thumbnail.metadata.contains(.thumbnail))
        #expect(thumbnail.bitmap == (try source.resampled(to: PixelSize(width: 50, height: 25), filter: .lanczos3)))
    }

    /// Orientation 6 (rotate 90 degrees clockwise): applied by default, kept raw when asked.
    @Test func orientation() throws {
        let stored = try Pictures.detailed(width: 40, height: 20)
        let data = try HandMade.oriented(stored, orientation: 6)
        let upright = try Self.coder.decode(data)
        #expect(upright.pixelSize == PixelSize(width: 20, height: 40))
        // Clockwise: stored (x, y) lands at (height - 1 - y, x).
        for (x, y) in [(0, 0), (39, 0), (5, 19), (17, 11)] {
            #expect(upright.bitmap[20 - 1 - y, x] == stored[x, y], "stored pixel \(x),\(y)")
        }
        var options = ImageDecodeOptions()
        options.applyOrientation = false
        let raw = try Self.coder.decode(data, options: options)
        #expect(raw.pixelSize == PixelSize(width: 40, height: 20))
        #expect(raw.bitmap.bytes == stored.bytes)
    }
}
