import Foundation
import Testing
import TIFFCoder
import WebImageCore

/// Layouts libtiff's RGBA reader refuses or gets wrong, found by the library test files
/// (``LibraryTestFileTests``): 16-bit CMYK and 12-bit grey (Pillow's `tiff_strip_cmyk_16l_jpeg.tif`
/// and `12bit.cropped.tif` were refused), and 8-bit CIE Lab (Pillow's `hopper.Lab.tif` came out
/// at 26 dB PSNR against lcms2's conversion). Each is written here tag by tag with known samples.
@Suite(.onOwnThreads) struct SampleDepthAndLabTests {
    /// A little-endian strip TIFF of `width` x `height` with the given tags and samples.
    static func tiff(width: UInt32, height: UInt32, bits: [UInt32], photometric: UInt32, payload: [UInt8]) -> Data {
        var builder = TIFFBuilder()
        builder.long(256, width)
        builder.long(257, height)
        builder.tags.append(TIFFBuilder.Tag(tag: 258, type: 3, values: bits))
        builder.short(259, 1)
        builder.short(262, photometric)
        builder.short(277, UInt32(bits.count))
        builder.long(278, height)
        builder.short(284, 1)
        return builder.data(stripBytes: UInt32(payload.count), payload: payload)
    }

    /// 16-bit little-endian samples as bytes.
    static func le16(_ values: [UInt16]) -> [UInt8] { values.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] } }

    @Test func sixteenBitCMYKIsConvertedLikeEightBit() throws {
        // White (no ink), full cyan, half magenta, full black.
        let inks: [UInt16] = [0, 0, 0, 0, 65535, 0, 0, 0, 0, 32768, 0, 0, 0, 0, 0, 65535]
        let data = Self.tiff(width: 4, height: 1, bits: [16, 16, 16, 16], photometric: 5, payload: Self.le16(inks))
        let image = try TIFFCoder().decode(data)
        #expect(image.bitmap[0, 0] == RGBAColor(red: 255, green: 255, blue: 255, alpha: 255))
        #expect(image.bitmap[1, 0] == RGBAColor(red: 0, green: 255, blue: 255, alpha: 255))
        #expect(image.bitmap[2, 0] == RGBAColor(red: 255, green: 127, blue: 255, alpha: 255))
        #expect(image.bitmap[3, 0] == RGBAColor(red: 0, green: 0, blue: 0, alpha: 255))
        // The thumbnail path (rows handed to the reducer) reads them too.
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(width: 2, height: 1)
        #expect(try TIFFCoder().decode(data, options: options).pixelSize == PixelSize(width: 2, height: 1))
    }

    @Test func twelveBitGreyIsScaledByItsDepth() throws {
        // Two rows of three 12-bit samples, packed from the top bit, each row padded to a byte.
        let rows: [[Int]] = [[0, 4095, 2048], [1000, 3000, 15]]
        var payload: [UInt8] = []
        for row in rows {
            var bits = row.flatMap { value in (0..<12).reversed().map { (value >> $0) & 1 } }
            while bits.count % 8 != 0 { bits.append(0) }
            payload += stride(from: 0, to: bits.count, by: 8).map { start in bits[start..<start + 8].reduce(UInt8(0)) { $0 << 1 | UInt8($1) } }
        }
        let image = try TIFFCoder().decode(Self.tiff(width: 3, height: 2, bits: [12], photometric: 1, payload: payload))
        for (y, row) in rows.enumerated() {
            for (x, value) in row.enumerated() {
                let expected = UInt8((value * 255 + 2047) / 4095)
                #expect(image.bitmap[x, y] == RGBAColor(red: expected, green: expected, blue: expected, alpha: 255), "(\(x), \(y)) of \(value)")
            }
        }
    }

    @Test func cieLabIsConvertedFromD50() throws {
        // White, black, L* 50 grey, and sRGB's red as D50 Lab (54.3, 80.8, 69.9): L* in 0...255,
        // a* and b* signed bytes.
        let samples: [UInt8] = [255, 0, 0, 0, 0, 0, 128, 0, 0, 138, 81, 70]
        let image = try TIFFCoder().decode(Self.tiff(width: 4, height: 1, bits: [8, 8, 8], photometric: 8, payload: samples))
        #expect(image.bitmap[0, 0] == RGBAColor(red: 255, green: 255, blue: 255, alpha: 255))
        #expect(image.bitmap[1, 0] == RGBAColor(red: 0, green: 0, blue: 0, alpha: 255))
        // L* 50.2 is sRGB 119 on every channel: neutral stays neutral (D50 white to D65 white).
        let grey = image.bitmap[2, 0]
        #expect(grey.red == grey.green && grey.green == grey.blue && abs(Int(grey.red) - 119) <= 1, "\(grey)")
        let red = image.bitmap[3, 0]
        #expect(red.red >= 250 && red.green <= 8 && red.blue <= 8, "\(red)")
    }
}
