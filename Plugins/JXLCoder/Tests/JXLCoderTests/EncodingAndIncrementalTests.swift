import Foundation
import Testing
import WebImageTestSupport
import WebImageCore
import JXLCoder

/// Encoding settings, and progressive decoding of a download fed in pieces.
@Suite(.onOwnThreads) struct EncodingAndIncrementalTests {
    @Test func losslessKeepsEveryChannelAndLossyTheVisiblePixels() throws {
        let source = try Pictures.detailed(width: 64, height: 48, alpha: true)
        let lossless = try JXLCoder(lossless: true).decode(JXLCoder(lossless: true).encode(WebImage(bitmap: source), as: .jpegXL))
        #expect(lossless.bitmap.bytes == source.bytes)
        let lossy = try JXLCoder().decode(JXLCoder().encode(WebImage(bitmap: source), as: .jpegXL, options: ImageEncodeOptions(compressionQuality: 0.9)))
        var worst = 0
        for y in 0..<48 {
            for x in 0..<64 where source[x, y].alpha == 255 {
                let p = lossy.bitmap[x, y], q = source[x, y]
                worst = max(worst, abs(Int(p.red) - Int(q.red)), abs(Int(p.green) - Int(q.green)), abs(Int(p.blue) - Int(q.blue)))
            }
        }
        #expect(worst <= 64, "lossy q 0.9 (distance 1) moves a visible channel by \(worst)")
    }

    @Test func qualityMapsToDistance() throws {
        let image = WebImage(bitmap: try Pictures.detailed(width: 128, height: 96))
        let sizes = try [0.2, 0.6, 0.9, 1].map { try JXLCoder().encode(image, as: .jpegXL, options: ImageEncodeOptions(compressionQuality: $0)).count }
        #expect(sizes == sizes.sorted() && Set(sizes).count == 4, "\(sizes)")
    }

    @Test func opaqueImagesHaveNoAlphaAndMaxPixelSizeDownsizes() throws {
        let image = WebImage(bitmap: try Pictures.detailed(width: 100, height: 50))
        var options = ImageEncodeOptions()
        options.maxPixelSize = PixelSize(width: 40, height: 40)
        let decoded = try JXLCoder().decode(JXLCoder().encode(image, as: .jpegXL, options: options))
        #expect(decoded.pixelSize == PixelSize(width: 40, height: 20))
        #expect(!decoded.hasAlpha)
        let error = try #require(throws: WebImageError.self) { try JXLCoder().encode(image, as: .png) }
        #expect(error.code == .unsupportedFormat)
    }

    @Test func multithreadedMatchesSingleThreaded() throws {
        let data = try JXLCoder().encode(WebImage(bitmap: try Pictures.detailed(width: 300, height: 300)), as: .jpegXL)
        #expect(try JXLCoder(threads: 2).decode(data).bitmap == JXLCoder().decode(data).bitmap)
    }

    /// A lossy image fed in growing prefixes: partial images (marked incremental, at full size)
    /// appear before the end, then the complete decode.
    @Test(arguments: [false, true])
    func progressive(_ thumbnail: Bool) throws {
        let source = WebImage(bitmap: try Pictures.detailed(width: 600, height: 520, alpha: true))
        let data = try JXLCoder().encode(source, as: .jpegXL, options: ImageEncodeOptions(compressionQuality: 0.9))
        var options = ImageDecodeOptions()
        if thumbnail { options.thumbnailPixelSize = PixelSize(width: 60, height: 60) }
        let coder = JXLCoder()
        #expect(coder.canIncrementallyDecode(data.prefix(1)))
        #expect(!coder.canIncrementallyDecode(Data([0x89, 0x50])))
        let decoder = coder.makeIncrementalDecoder(options: options)
        var partials: [WebImage] = []
        for eighth in 1..<8 {
            decoder.update(data: data.prefix(data.count * eighth / 8), finished: false)
            if let image = decoder.currentImage() { partials.append(image) }
        }
        let expectedSize = thumbnail ? PixelSize(width: 60, height: 52) : PixelSize(width: 600, height: 520)
        #expect(!partials.isEmpty)
        #expect(partials.allSatisfy { $0.metadata.contains(.incremental) && $0.pixelSize == expectedSize })
        #expect(partials.allSatisfy { $0.metadata.contains(.thumbnail) == thumbnail })
        decoder.update(data: data, finished: true)
        let final = try #require(decoder.currentImage())
        #expect(!final.metadata.contains(.incremental))
        #expect(final.bitmap == (try coder.decode(data, options: options).bitmap))
        if let last = partials.last { #expect(last.bitmap != final.bitmap, "the partial image is not yet the whole") }
    }

    @Test func incrementalRefusesTooLargeAndCorrupt() throws {
        let data = try JXLCoder().encode(WebImage(bitmap: try Pictures.detailed(width: 200, height: 200)), as: .jpegXL)
        var options = ImageDecodeOptions()
        options.maxPixelCount = 100
        let decoder = JXLCoder().makeIncrementalDecoder(options: options)
        decoder.update(data: data.prefix(data.count / 2), finished: false)
        #expect(decoder.currentImage() == nil)
        var corrupt = [UInt8](data)
        for index in stride(from: 40, to: corrupt.count, by: 7) { corrupt[index] ^= 0x5A }
        let second = JXLCoder().makeIncrementalDecoder(options: ImageDecodeOptions())
        for fraction in 1...4 {
            second.update(data: Data(corrupt.prefix(corrupt.count * fraction / 4)), finished: fraction == 4)
            _ = second.currentImage()
        }
    }
}
