import Foundation
import Testing
import WebImageTestSupport
import WebImageCoders
import WebImageCore

/// BMPs built by hand from the format's documentation, with expected pixels written out.
@Suite(.onOwnThreads) struct BMPCoderTests {
    let coder = BMPCoder()

    static func le32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) } }
    static func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }

    /// A BITMAPINFOHEADER file: `rows` are the stored rows (already padded), bottom-up unless
    /// `height` is negative.
    static func bmp(width: Int, height: Int, bits: Int, compression: Int = 0, palette: [[UInt8]] = [], masks: [Int] = [], pixels: [UInt8]) -> Data {
        let tableBytes = palette.count * 4 + masks.count * 4
        let offset = 14 + 40 + tableBytes
        var data: [UInt8] = [0x42, 0x4D] + le32(offset + pixels.count) + le32(0) + le32(offset)
        data += le32(40) + le32(width) + le32(height) + le16(1) + le16(bits) + le32(compression) + le32(pixels.count)
        data += le32(2835) + le32(2835) + le32(palette.count) + le32(0)
        for mask in masks { data += le32(mask) }
        for entry in palette { data += [entry[2], entry[1], entry[0], 0] }  // stored BGR0
        return Data(data + pixels)
    }

    static let red = RGBAColor(red: 255, green: 0, blue: 0), green = RGBAColor(red: 0, green: 255, blue: 0)
    static let blue = RGBAColor(red: 0, green: 0, blue: 255), white = RGBAColor.white
    static let palette: [[UInt8]] = [[255, 0, 0], [0, 255, 0], [0, 0, 255], [255, 255, 255]]

    static func pixels(_ bitmap: Bitmap) -> [RGBAColor] {
        (0..<bitmap.height).flatMap { y in (0..<bitmap.width).map { x in bitmap[x, y] } }
    }

    @Test func oneBitBottomUp() throws {
        // 3x2; stored bottom row first: bottom = 1 0 1, top = 0 1 0.
        let data = Self.bmp(width: 3, height: 2, bits: 1, palette: Array(Self.palette.prefix(2)),
                            pixels: [0b1010_0000, 0, 0, 0, 0b0100_0000, 0, 0, 0])
        #expect(Self.pixels(try coder.decode(data).bitmap) == [Self.red, Self.green, Self.red, Self.green, Self.red, Self.green])
    }

    @Test func fourAndEightBitsTopDown() throws {
        let four = Self.bmp(width: 3, height: -1, bits: 4, palette: Self.palette, pixels: [0x01, 0x20, 0, 0])
        #expect(Self.pixels(try coder.decode(four).bitmap) == [Self.red, Self.green, Self.blue])
        let eight = Self.bmp(width: 2, height: -2, bits: 8, palette: Self.palette, pixels: [3, 2, 0, 0, 1, 0, 0, 0])
        #expect(Self.pixels(try coder.decode(eight).bitmap) == [Self.white, Self.blue, Self.green, Self.red])
    }

    @Test func sixteenBitDefaultsTo555AndBitfieldsTo565() throws {
        // 0x7C00 = red in 5-5-5; 0xF800 = red in 5-6-5, 0x07E0 green.
        let rgb555 = Self.bmp(width: 2, height: 1, bits: 16, pixels: Self.le16(0x7C00) + Self.le16(0x001F))
        #expect(Self.pixels(try coder.decode(rgb555).bitmap) == [Self.red, Self.blue])
        let rgb565 = Self.bmp(width: 2, height: 1, bits: 16, compression: 3, masks: [0xF800, 0x07E0, 0x001F],
                              pixels: Self.le16(0xF800) + Self.le16(0x07E0))
        #expect(Self.pixels(try coder.decode(rgb565).bitmap) == [Self.red, Self.green])
    }

    @Test func twentyFourBitIsBGR() throws {
        let data = Self.bmp(width: 1, height: 1, bits: 24, pixels: [30, 20, 10, 0])
        let image = try coder.decode(data)
        #expect(image.bitmap[0, 0] == RGBAColor(red: 10, green: 20, blue: 30))
        #expect(!image.hasAlpha)
    }

    /// A BITMAPV4HEADER (108) or BITMAPV5HEADER (124) file with the four masks in the header.
    static func bmpV4(headerSize: Int = 108, width: Int, height: Int, bits: Int, compression: Int, masks: [Int], pixels: [UInt8]) -> Data {
        let offset = 14 + headerSize
        var data: [UInt8] = [0x42, 0x4D] + le32(offset + pixels.count) + le32(0) + le32(offset)
        data += le32(headerSize) + le32(width) + le32(height) + le16(1) + le16(bits) + le32(compression) + le32(pixels.count)
        data += le32(2835) + le32(2835) + le32(0) + le32(0)
        for mask in masks { data += le32(mask) }
        data += Array("BGRs".utf8.reversed())  // LCS_sRGB
        data += [UInt8](repeating: 0, count: headerSize - 40 - 16 - 4)  // endpoints, gammas, V5 fields
        return Data(data + pixels)
    }

    /// The fourth byte of a BI_RGB pixel is unused: every pixel is opaque, whatever it holds.
    @Test func thirtyTwoBitRGBIgnoresTheFourthByte() throws {
        let zeros = Self.bmp(width: 2, height: 1, bits: 32, pixels: [1, 2, 3, 0, 4, 5, 6, 0])
        let zerosImage = try coder.decode(zeros)
        #expect(zerosImage.bitmap[0, 0] == RGBAColor(red: 3, green: 2, blue: 1, alpha: 255))
        #expect(!zerosImage.hasAlpha)
        let mixed = Self.bmp(width: 3, height: 1, bits: 32, pixels: [1, 2, 3, 0, 4, 5, 6, 128, 7, 8, 9, 255])
        let mixedImage = try coder.decode(mixed)
        #expect(Self.pixels(mixedImage.bitmap) == [RGBAColor(red: 3, green: 2, blue: 1, alpha: 255),
                                                  RGBAColor(red: 6, green: 5, blue: 4, alpha: 255),
                                                  RGBAColor(red: 9, green: 8, blue: 7, alpha: 255)])
        #expect(!mixedImage.hasAlpha)
    }

    /// BI_BITFIELDS (in a V4 header) and BI_ALPHABITFIELDS take alpha from a non-zero alpha mask.
    @Test func thirtyTwoBitAlphaComesFromTheAlphaMask() throws {
        let fields = Self.bmp(width: 1, height: 1, bits: 32, compression: 6, masks: [0xFF, 0xFF00, 0xFF_0000, 0xFF00_0000], pixels: [9, 8, 7, 6])
        let fieldsImage = try coder.decode(fields)
        #expect(fieldsImage.bitmap[0, 0] == RGBAColor(red: 9, green: 8, blue: 7, alpha: 6))
        #expect(fieldsImage.hasAlpha)
        let v4 = Self.bmpV4(width: 2, height: 1, bits: 32, compression: 3, masks: [0xFF_0000, 0xFF00, 0xFF, 0xFF00_0000],
                            pixels: [1, 2, 3, 0, 4, 5, 6, 128])
        let v4Image = try coder.decode(v4)
        #expect(Self.pixels(v4Image.bitmap) == [RGBAColor(red: 3, green: 2, blue: 1, alpha: 0), RGBAColor(red: 6, green: 5, blue: 4, alpha: 128)])
        #expect(v4Image.hasAlpha)
        let noAlphaMask = Self.bmpV4(width: 1, height: 1, bits: 32, compression: 3, masks: [0xFF_0000, 0xFF00, 0xFF, 0],
                                     pixels: [1, 2, 3, 128])
        let noAlphaImage = try coder.decode(noAlphaMask)
        #expect(noAlphaImage.bitmap[0, 0] == RGBAColor(red: 3, green: 2, blue: 1, alpha: 255))
        #expect(!noAlphaImage.hasAlpha)
    }

    /// BI_RGB with a V4/V5 header: the header's alpha mask counts (as in Chrome; the format
    /// restricts only the colour masks to BI_BITFIELDS), unless every pixel's alpha is 0.
    @Test func thirtyTwoBitRGBWithAV4OrV5AlphaMask() throws {
        for headerSize in [108, 124] {
            let stated = Self.bmpV4(headerSize: headerSize, width: 2, height: 1, bits: 32, compression: 0,
                                    masks: [0, 0, 0, 0xFF00_0000], pixels: [1, 2, 3, 64, 4, 5, 6, 255])
            let statedImage = try coder.decode(stated)
            #expect(Self.pixels(statedImage.bitmap) == [RGBAColor(red: 3, green: 2, blue: 1, alpha: 64), RGBAColor(red: 6, green: 5, blue: 4, alpha: 255)])
            #expect(statedImage.hasAlpha)
            let allZero = Self.bmpV4(headerSize: headerSize, width: 2, height: 1, bits: 32, compression: 0,
                                     masks: [0, 0, 0, 0xFF00_0000], pixels: [1, 2, 3, 0, 4, 5, 6, 0])
            let allZeroImage = try coder.decode(allZero)
            #expect(Self.pixels(allZeroImage.bitmap).allSatisfy { $0.alpha == 255 })
            #expect(!allZeroImage.hasAlpha)
            let none = Self.bmpV4(headerSize: headerSize, width: 2, height: 1, bits: 32, compression: 0,
                                  masks: [0, 0, 0, 0], pixels: [1, 2, 3, 64, 4, 5, 6, 0])
            let noneImage = try coder.decode(none)
            #expect(Self.pixels(noneImage.bitmap) == [RGBAColor(red: 3, green: 2, blue: 1, alpha: 255), RGBAColor(red: 6, green: 5, blue: 4, alpha: 255)])
            #expect(!noneImage.hasAlpha)
        }
    }

    @Test func rle8WithRunsAbsoluteModeDeltaAndEnd() throws {
        // 5x2 bottom-up. Row 0 (bottom): run of 2 x index 1; absolute run of 3 [2, 3, 0] padded
        // to an even length; end of line. Row 1: delta (3, 0), a run of 1 x index 0, end of bitmap.
        let stream: [UInt8] = [2, 1, 0, 3, 2, 3, 0, 0, 0, 0, 0, 2, 3, 0, 1, 0, 0, 1]
        let data = Self.bmp(width: 5, height: 2, bits: 8, compression: 1, palette: Self.palette, pixels: stream)
        let image = try coder.decode(data)
        let clear = RGBAColor.clear
        #expect(Self.pixels(image.bitmap) == [clear, clear, clear, Self.red, clear, Self.green, Self.green, Self.blue, Self.white, Self.red])
        #expect(!image.metadata.contains(.incremental))
    }

    @Test func rle4Nibbles() throws {
        // 3x1: run of 3 alternating 0x12 -> 1, 2, 1; end of bitmap.
        let data = Self.bmp(width: 3, height: 1, bits: 4, compression: 2, palette: Self.palette, pixels: [3, 0x12, 0, 1])
        #expect(Self.pixels(try coder.decode(data).bitmap) == [Self.green, Self.blue, Self.green])
    }

    /// A 62-byte file whose header claims 100000 x 100000 fails at once.
    @Test func decompressionBombIsRefusedFromTheHeader() throws {
        let data = Self.bmp(width: 100_000, height: 100_000, bits: 24, pixels: [0, 0, 0, 0])
        let error = try #require(throws: WebImageError.self) { try coder.decode(data) }
        #expect(error.code == .imageTooLarge)
        #expect(error.message.contains("100000x100000"))
    }

    @Test func truncatedPixelsLeaveMissingRowsTransparent() throws {
        var data = Self.bmp(width: 1, height: 3, bits: 24, pixels: [0, 0, 255, 0, 0, 255, 0, 0, 0, 0, 255, 0])
        data.removeLast(4)
        let image = try coder.decode(data)
        #expect(image.metadata.contains(.incremental))
        #expect(image.bitmap[0, 0].alpha == 0)  // the top row is stored last
        #expect(image.bitmap[0, 2] == Self.red)
    }

    @Test func unsupportedCombinationsAreBadImageData() throws {
        for (bits, compression) in [(24, 1), (8, 2), (7, 0), (8, 4)] {
            let data = Self.bmp(width: 1, height: 1, bits: bits, compression: compression, pixels: [0, 0, 0, 0])
            let error = try #require(throws: WebImageError.self) { try coder.decode(data) }
            #expect(error.code == .badImageData)
        }
        #expect(!coder.canDecode(Data("BM hello, not an image".utf8)))
    }

    @Test func encodesThirtyTwoBitWithAlpha() throws {
        let source = TestImages.gradient(width: 7, height: 5, alpha: true)
        let data = try coder.encode(WebImage(bitmap: source), as: .bmp)
        #expect(ImageFormat.detect(data) == .bmp)
        #expect([UInt8](data)[28] == 32)
        let decoded = try coder.decode(data)
        #expect(decoded.bitmap.bytes == source.bytes)
        #expect(decoded.hasAlpha)
    }

    @Test func thumbnail() throws {
        let data = try coder.encode(TestImages.still(width: 40, height: 20), as: .bmp)
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(width: 10, height: 10)
        let image = try coder.decode(data, options: options)
        #expect(image.pixelSize == PixelSize(width: 10, height: 5))
        #expect(image.metadata.contains(.thumbnail))
    }
}
