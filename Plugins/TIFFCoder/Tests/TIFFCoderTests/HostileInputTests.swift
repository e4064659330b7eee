import Foundation
import Testing
import WebImageTestSupport
import TIFFCoder
import WebImageCore

/// Inputs made to hurt: claimed sizes far over the data, truncated strips, garbage. Each is a
/// clear `WebImageError`, refused from the headers where the headers say enough.
@Suite(.onOwnThreads) struct HostileInputTests {
    /// 100000 x 100000 RGB (30 GB decoded) in one deflate strip of 16 bytes: refused from the
    /// directory, before any pixel memory (the CLI suite measures the peak RSS of the same file).
    static let bomb = TIFFBuilder.rgb(width: 100_000, height: 100_000, rowsPerStrip: 100_000, compression: 8, stripBytes: 16, payload: [UInt8](repeating: 0x78, count: 16))

    @Test func aHugeHeaderIsRefusedBeforeAllocation() throws {
        let error = try #require(throws: WebImageError.self) { try TIFFCoder().decode(Self.bomb) }
        #expect(error.code == .imageTooLarge)
        #expect(error.message.contains("100000x100000"), "\(error.message)")
        // A thumbnail does not escape the limit: every source pixel would still be inflated.
        var thumbnail = ImageDecodeOptions()
        thumbnail.thumbnailPixelSize = PixelSize(width: 64, height: 64)
        #expect(throws: WebImageError.self) { try TIFFCoder().decode(Self.bomb, options: thumbnail) }
        // The header is still described.
        let properties = try TIFFCoder().readProperties(of: Self.bomb)
        #expect(properties.pixelSize == PixelSize(width: 100_000, height: 100_000))
        #expect(properties.decodeLimitError() != nil)
    }

    @Test func aTruncatedStripIsAClearError() throws {
        // 32x32 RGB uncompressed claims 3072 bytes in its strip; 1000 are there.
        let data = TIFFBuilder.rgb(width: 32, height: 32, rowsPerStrip: 32, stripBytes: 3072, payload: [UInt8](repeating: 0x80, count: 1000))
        let error = try #require(throws: WebImageError.self) { try TIFFCoder().decode(data) }
        #expect(error.code == .badImageData)
        #expect(error.message.contains("row"), "\(error.message)")
    }

    @Test func aTruncatedDeflateStripIsAClearError() throws {
        let image = WebImage(bitmap: TestPattern.bitmap(width: 64, height: 64))
        let full = try TIFFCoder(compression: .none).encode(image, as: .tiff)
        // The strips come first and the directory last: cut out the middle of the strips,
        // keeping the directory, so the directory claims more strip bytes than there are.
        let decoded = try TIFFCoder().decode(full)
        #expect(decoded.pixelSize == PixelSize(width: 64, height: 64))
        var cut = TIFFBuilder.rgb(width: 64, height: 64, rowsPerStrip: 64, compression: 8, stripBytes: 4000, payload: [0x78, 0x9C, 0xED, 0xC1, 0x01, 0x0D])
        cut.append(contentsOf: [UInt8](repeating: 0, count: 3))
        let error = try #require(throws: WebImageError.self) { try TIFFCoder().decode(cut) }
        #expect(error.code == .badImageData, "\(error)")
    }

    @Test(arguments: [
        ("empty", Data()),
        ("header only", Data([0x49, 0x49, 42, 0])),
        ("IFD past the end", Data([0x49, 0x49, 42, 0, 0xFF, 0xFF, 0, 0])),
        ("big-endian, no IFD", Data([0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 0])),
    ])
    func garbageIsABadImageDataError(_ name: String, _ data: Data) throws {
        let error = try #require(throws: WebImageError.self, "\(name)") { try TIFFCoder().decode(data) }
        #expect(error.code == .badImageData, "\(name): \(error)")
    }

    @Test func pageAndFrameLimitsApply() throws {
        let page = WebImage(bitmap: TestPattern.bitmap(width: 20, height: 10))
        let three = try WebImage(frames: [ImageFrame(bitmap: page.bitmap), ImageFrame(bitmap: page.bitmap), ImageFrame(bitmap: page.bitmap)])
        let data = try TIFFCoder().encode(three, as: .tiff)
        #expect(try TIFFCoder().decode(data).frameCount == 3)
        var frames = ImageDecodeOptions()
        frames.maxFrameCount = 2
        #expect(throws: WebImageError.self) { try TIFFCoder().decode(data, options: frames) }
        var total = ImageDecodeOptions()
        total.maxTotalPixelCount = 500
        let error = try #require(throws: WebImageError.self) { try TIFFCoder().decode(data, options: total) }
        #expect(error.code == .imageTooLarge)
        var pixels = ImageDecodeOptions()
        pixels.maxPixelCount = 199
        #expect(throws: WebImageError.self) { try TIFFCoder().decode(data, options: pixels) }
        frames.firstFrameOnly = true
        #expect(try TIFFCoder().decode(data, options: frames).frameCount == 1)
    }
}

/// A deterministic RGBA pattern with alpha.
enum TestPattern {
    static func bitmap(width: Int, height: Int, alpha: Bool = true) -> Bitmap {
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let o = (y * width + x) * 4
                bytes[o] = UInt8((x * 7) & 0xFF)
                bytes[o + 1] = UInt8((y * 13) & 0xFF)
                bytes[o + 2] = UInt8((x * y) & 0xFF)
                bytes[o + 3] = alpha ? UInt8(64 + (x + y) % 192) : 255
            }
        }
        return try! Bitmap(width: width, height: height, bytes: bytes, hasAlpha: alpha)
    }
}
