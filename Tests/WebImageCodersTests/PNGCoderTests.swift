import Foundation
import Testing
import WebImageTestSupport
import WebImageCoders
import WebImageCore

@Suite(.onOwnThreads) struct PNGCoderTests {
    let coder = PNGCoder()

    // MARK: decoding, with expectations from the PNG specification

    @Test(arguments: [1, 2, 4, 8])
    func grayscaleSamplesAreScaledToEightBits(_ depth: Int) throws {
        let maximum = (1 << depth) - 1
        let row = (0...maximum).map { $0 }
        let data = PNGBuilder.image(width: row.count, height: 1, bitDepth: depth, colorType: 0, rows: [row])
        let bitmap = try coder.decode(data).bitmap
        for (x, sample) in row.enumerated() {
            let expected = UInt8(sample * 255 / maximum)
            #expect(bitmap[x, 0] == RGBAColor(red: expected, green: expected, blue: expected), "sample \(sample) of \(depth) bits")
        }
        #expect(!bitmap.hasAlpha)
    }

    @Test func sixteenBitSamplesAreRounded() throws {
        let samples = [0, 128, 129, 257 * 100 + 128, 257 * 100 + 129, 65535]
        let data = PNGBuilder.image(width: samples.count, height: 1, bitDepth: 16, colorType: 0, rows: [samples])
        let bitmap = try coder.decode(data).bitmap
        let expected: [UInt8] = [0, 0, 1, 100, 101, 255]  // round(v / 257)
        for (x, value) in expected.enumerated() { #expect(bitmap[x, 0].red == value, "sample \(samples[x])") }
    }

    @Test func rgbaSixteenBitKeepsAlpha() throws {
        let data = PNGBuilder.image(width: 1, height: 1, bitDepth: 16, colorType: 6, rows: [[65535, 0, 257 * 7, 257 * 128]])
        let image = try coder.decode(data)
        #expect(image.bitmap[0, 0] == RGBAColor(red: 255, green: 0, blue: 7, alpha: 128))
        #expect(image.hasAlpha)
    }

    @Test func grayAlphaIsExpanded() throws {
        let data = PNGBuilder.image(width: 2, height: 1, bitDepth: 8, colorType: 4, rows: [[10, 20, 30, 40]])
        let bitmap = try coder.decode(data).bitmap
        #expect(bitmap[0, 0] == RGBAColor(red: 10, green: 10, blue: 10, alpha: 20))
        #expect(bitmap[1, 0] == RGBAColor(red: 30, green: 30, blue: 30, alpha: 40))
    }

    @Test(arguments: [1, 2, 4, 8])
    func paletteWithTransparency(_ depth: Int) throws {
        let entries = min(4, 1 << depth)
        let palette: [UInt8] = [255, 0, 0, 0, 255, 0, 0, 0, 255, 9, 9, 9].prefix(entries * 3).map { $0 }
        let data = PNGBuilder.image(width: entries, height: 1, bitDepth: depth, colorType: 3, rows: [Array(0..<entries)]) { png in
            png.chunk("PLTE", palette)
            png.chunk("tRNS", [0, 128])  // entry 0 transparent, entry 1 half, the rest opaque
        }
        let image = try coder.decode(data)
        #expect(image.bitmap[0, 0].alpha == 0)
        #expect(image.bitmap[1, 0] == RGBAColor(red: 0, green: 255, blue: 0, alpha: 128))
        if entries > 2 { #expect(image.bitmap[2, 0] == RGBAColor(red: 0, green: 0, blue: 255)) }
        #expect(image.hasAlpha)
    }

    @Test func paletteIndexPastThePaletteIsOpaqueBlack() throws {
        let data = PNGBuilder.image(width: 2, height: 1, bitDepth: 8, colorType: 3, rows: [[0, 200]]) { $0.chunk("PLTE", [1, 2, 3]) }
        let bitmap = try coder.decode(data).bitmap
        #expect(bitmap[0, 0] == RGBAColor(red: 1, green: 2, blue: 3))
        #expect(bitmap[1, 0] == RGBAColor.black)
    }

    @Test func colorKeyTransparencyForRGBAndGray() throws {
        let rgb = PNGBuilder.image(width: 2, height: 1, bitDepth: 8, colorType: 2, rows: [[1, 2, 3, 4, 5, 6]]) { $0.chunk("tRNS", [0, 4, 0, 5, 0, 6]) }
        let rgbBitmap = try coder.decode(rgb).bitmap
        #expect(rgbBitmap[0, 0].alpha == 255)
        #expect(rgbBitmap[1, 0].alpha == 0)
        // 16-bit keys compare the full sample, before rounding to 8 bits.
        let gray = PNGBuilder.image(width: 2, height: 1, bitDepth: 16, colorType: 0, rows: [[1000, 1001]]) { $0.chunk("tRNS", [0x03, 0xE8]) }
        let grayBitmap = try coder.decode(gray).bitmap
        #expect(grayBitmap[0, 0].alpha == 0)
        #expect(grayBitmap[1, 0].alpha == 255)
    }

    @Test(arguments: [0, 1, 2, 3, 4])
    func everyFilterTypeIsUndone(_ filter: Int) throws {
        // Two rows of RGB; the second filtered with `filter` by hand against the first.
        let first: [UInt8] = [10, 20, 30, 200, 100, 50]
        let second: [UInt8] = [12, 25, 31, 190, 101, 60]
        var filtered: [UInt8] = [UInt8(filter)]
        for i in 0..<6 {
            let a = i >= 3 ? Int(second[i - 3]) : 0, b = Int(first[i]), c = i >= 3 ? Int(first[i - 3]) : 0
            let predictor: Int
            switch filter {
            case 0: predictor = 0
            case 1: predictor = a
            case 2: predictor = b
            case 3: predictor = (a + b) / 2
            default:
                let p = a + b - c
                let pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
                predictor = pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
            }
            filtered.append(UInt8(truncatingIfNeeded: Int(second[i]) - predictor))
        }
        var png = PNGBuilder()
        png.header(width: 2, height: 2, bitDepth: 8, colorType: 2)
        png.imageData([0] + first + filtered)
        png.end()
        let bitmap = try coder.decode(png.data).bitmap
        #expect(bitmap[0, 1] == RGBAColor(red: 12, green: 25, blue: 31))
        #expect(bitmap[1, 1] == RGBAColor(red: 190, green: 101, blue: 60))
    }

    @Test func imageDataSplitAcrossManyChunksDecodes() throws {
        var png = PNGBuilder()
        png.header(width: 3, height: 2, bitDepth: 8, colorType: 0)
        png.imageData(PNGBuilder.rawRows([[1, 2, 3], [4, 5, 6]], bitDepth: 8), chunks: 7)
        png.end()
        #expect(try coder.decode(png.data).bitmap[2, 1].red == 6)
    }

    @Test func interlacedAndNonInterlacedEncodingsOfTheSamePixelsAgree() throws {
        // Adam7 by hand: pass p holds the pixels whose (x, y) fall on its grid.
        let width = 11, height = 9
        func value(_ x: Int, _ y: Int) -> Int { (x * 23 + y * 7) % 256 }
        let passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
        var raw: [UInt8] = []
        for (x0, y0, dx, dy) in passes {
            let columns = Array(stride(from: x0, to: width, by: dx)), rows = Array(stride(from: y0, to: height, by: dy))
            guard !columns.isEmpty else { continue }
            raw += PNGBuilder.rawRows(rows.map { y in columns.map { value($0, y) } }, bitDepth: 8)
        }
        var png = PNGBuilder()
        png.header(width: width, height: height, bitDepth: 8, colorType: 0, interlaced: true)
        png.imageData(raw)
        png.end()
        let interlaced = try coder.decode(png.data).bitmap
        let plain = try coder.decode(PNGBuilder.image(width: width, height: height, bitDepth: 8, colorType: 0,
                                                      rows: (0..<height).map { y in (0..<width).map { value($0, y) } })).bitmap
        #expect(interlaced == plain)
    }

    // MARK: safety

    /// A tiny file whose IHDR claims 100000 x 100000 fails at once, before any allocation.
    @Test func decompressionBombIsRefusedFromTheHeader() throws {
        var png = PNGBuilder()
        png.header(width: 100_000, height: 100_000, bitDepth: 8, colorType: 6)
        png.imageData([0, 0, 0, 0, 0])
        png.end()
        #expect(png.data.count < 100)
        let error = try #require(throws: WebImageError.self) { try coder.decode(png.data) }
        #expect(error.code == .imageTooLarge)
        #expect(error.message.contains("100000x100000"))
        #expect(throws: WebImageError.self) { try coder.makeAnimatedImageProvider(for: png.data, options: ImageDecodeOptions()) }
    }

    @Test func pixelLimitIsConfigurable() throws {
        let data = try coder.encode(TestImages.still(width: 10, height: 10), as: .png)
        var options = ImageDecodeOptions()
        options.maxPixelCount = 99
        #expect(throws: WebImageError.self) { try coder.decode(data, options: options) }
        options.maxPixelCount = 100
        #expect(try coder.decode(data, options: options).pixelSize == PixelSize(width: 10, height: 10))
    }

    @Test func invalidHeadersAreBadImageData() throws {
        for (depth, type) in [(3, 0), (8, 5), (4, 2), (16, 3)] {
            var png = PNGBuilder()
            png.header(width: 1, height: 1, bitDepth: depth, colorType: type)
            png.end()
            let error = try #require(throws: WebImageError.self) { try coder.decode(png.data) }
            #expect(error.code == .badImageData)
        }
    }

    @Test func badCRCInACriticalChunkIsAnErrorAndInAnAncillaryChunkIsIgnored() throws {
        var critical = PNGBuilder()
        critical.header(width: 1, height: 1, bitDepth: 8, colorType: 3)
        critical.chunk("PLTE", [1, 2, 3], corruptCRC: true)
        critical.imageData([0, 0])
        critical.end()
        let error = try #require(throws: WebImageError.self) { try coder.decode(critical.data) }
        #expect(error.message.contains("PLTE"))
        let ancillary = PNGBuilder.image(width: 1, height: 1, bitDepth: 8, colorType: 0, rows: [[7]]) { $0.chunk("tEXt", Array("a\0b".utf8), corruptCRC: true) }
        #expect(try coder.decode(ancillary).bitmap[0, 0].red == 7)
    }

    @Test func unknownFilterTypeIsBadImageData() throws {
        var png = PNGBuilder()
        png.header(width: 1, height: 1, bitDepth: 8, colorType: 0)
        png.imageData([9, 0])
        png.end()
        let error = try #require(throws: WebImageError.self) { try coder.decode(png.data) }
        #expect(error.code == .badImageData)
        #expect(error.message.contains("filter"))
    }

    @Test func paletteImageWithoutPaletteIsBadImageData() throws {
        let data = PNGBuilder.image(width: 1, height: 1, bitDepth: 8, colorType: 3, rows: [[0]])
        #expect(throws: WebImageError.self) { try coder.decode(data) }
    }

    @Test func truncatedDataGivesTheRowsThatArrived() throws {
        let source = TestImages.gradient(width: 32, height: 64)
        let data = try PNGCoder(compressionLevel: 0).encode(WebImage(bitmap: source), as: .png)
        let image = try coder.decode(Data(data.prefix(data.count / 2)))
        #expect(image.metadata.contains(.incremental))
        #expect(image.pixelSize == source.size)
        #expect(image.bitmap[5, 0] == source[5, 0])
        #expect(image.bitmap[5, 63].alpha == 0)
    }

    @Test func dataTruncatedBeforeTheImageDataIsAnError() throws {
        let data = try coder.encode(TestImages.still(), as: .png)
        let error = try #require(throws: WebImageError.self) { try coder.decode(Data(data.prefix(40))) }
        #expect(error.code == .badImageData)
        #expect(error.message.contains("truncated"))
    }

    // MARK: incremental

    @Test func incrementalDecodingShowsMoreRowsAsDataArrives() throws {
        let source = TestImages.gradient(width: 24, height: 48)
        let data = try PNGCoder(compressionLevel: 0).encode(WebImage(bitmap: source), as: .png)
        let decoder = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
        var decodedRows: [Int] = []
        for fraction in [0.3, 0.6] {
            decoder.update(data: Data(data.prefix(Int(Double(data.count) * fraction))), finished: false)
            let image = try #require(decoder.currentImage())
            #expect(image.metadata.contains(.incremental))
            decodedRows.append((0..<48).filter { image.bitmap[0, $0].alpha == 255 }.count)
        }
        #expect(decodedRows[0] > 0 && decodedRows[0] < decodedRows[1] && decodedRows[1] < 48)
        decoder.update(data: data, finished: true)
        let final = try #require(decoder.currentImage())
        #expect(!final.metadata.contains(.incremental))
        #expect(final.bitmap == source)
    }

    @Test func smallUpdatesReuseTheLastPartialImage() throws {
        let source = TestImages.gradient(width: 24, height: 96)
        let data = try PNGCoder(compressionLevel: 0).encode(WebImage(bitmap: source), as: .png)
        let decoder = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
        func rows() throws -> Int {
            let image = try #require(decoder.currentImage())
            return (0..<96).filter { image.bitmap[0, $0].alpha == 255 }.count
        }
        decoder.update(data: Data(data.prefix(data.count * 40 / 100)), finished: false)
        let first = try rows()
        // Under a quarter more data: the last image is reused (a few full decodes per download).
        decoder.update(data: Data(data.prefix(data.count * 45 / 100)), finished: false)
        #expect(try rows() == first)
        decoder.update(data: Data(data.prefix(data.count * 80 / 100)), finished: false)
        #expect(try rows() > first)
        decoder.update(data: data, finished: true)
        #expect(try rows() == 96)
    }

    @Test func canIncrementallyDecodeASignaturePrefix() {
        #expect(coder.canIncrementallyDecode(Data([0x89, 0x50])))
        #expect(!coder.canIncrementallyDecode(Data([0xFF, 0xD8])))
    }

    // MARK: thumbnails

    @Test func thumbnailIsResampledToTheAspectFitSize() throws {
        let data = try coder.encode(TestImages.still(width: 300, height: 100), as: .png)
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(width: 60, height: 60)
        let image = try coder.decode(data, options: options)
        #expect(image.pixelSize == PixelSize(width: 60, height: 20))
        #expect(image.metadata.contains(.thumbnail))
        options.preserveAspectRatio = false
        #expect(try coder.decode(data, options: options).pixelSize == PixelSize(width: 60, height: 60))
    }

    // MARK: encoding

    @Test func encoderPicksTheSmallestExactColorType() throws {
        func colorType(_ bitmap: Bitmap) throws -> UInt8 {
            [UInt8](try coder.encode(WebImage(bitmap: bitmap), as: .png))[25]
        }
        #expect(try colorType(TestImages.solid(RGBAColor(red: 90, green: 90, blue: 90))) == 0)
        #expect(try colorType(TestImages.gradient()) == 2)
        #expect(try colorType(TestImages.gradient(alpha: true)) == 6)
        // Declared alpha that is all opaque is dropped.
        var opaque = TestImages.gradient()
        opaque.hasAlpha = true
        #expect(try colorType(opaque) == 2)
    }

    @Test(arguments: [TestImages.solid(RGBAColor(red: 90, green: 90, blue: 90)), TestImages.gradient(width: 33, height: 17), TestImages.gradient(width: 5, height: 40, alpha: true)])
    func losslessRoundTrip(_ bitmap: Bitmap) throws {
        let decoded = try coder.decode(try coder.encode(WebImage(bitmap: bitmap), as: .png))
        #expect(decoded.bitmap.bytes == bitmap.bytes)
    }

    @Test func compressionLevelTradesSpeedForSize() throws {
        let image = WebImage(bitmap: TestImages.gradient(width: 200, height: 200, seed: 3))
        let stored = try PNGCoder(compressionLevel: 0).encode(image, as: .png)
        let best = try PNGCoder(compressionLevel: 9).encode(image, as: .png)
        #expect(best.count < stored.count)
        #expect(try coder.decode(stored).bitmap == image.bitmap)
        #expect(PNGCoder(compressionLevel: 42).compressionLevel == 9)
    }
}
