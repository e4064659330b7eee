import Foundation
import Testing
import WebImageTestSupport
@testable import WebImageCoders
import WebImageCore

/// BMP thumbnails are reduced by integer blocks before the Lanczos resample (``BoxReduction``).
/// Found by fuzzing at the default limits: a 95-byte RLE8 file claiming 5 x 7,630,409 (38 MP,
/// within the limits) took 4 s in release (over 10 s under AddressSanitizer) to thumbnail,
/// because Lanczos-3 ran over every source pixel with kernels 1.5 million taps wide.
@Suite(.onOwnThreads) struct BMPThumbnailTests {
    /// The fuzzer's input (libFuzzer timeout artifact), unchanged.
    static let fuzzTimeout = Data(base64Encoded: "Qk1YAAAAAAAAAEYAAAAoAAAABQAAAEludAABAAgAAQAAABIAAAATCwAAEwsAAPn0bzbRfwAABAAAAAAAAAAAAP8AAP8AAP8AAAD/WAAAAAAAAABGAAAAKP//AAEAAAE=")!

    @Test func theFuzzInputIsReducedBeforeItIsResampled() throws {
        #expect(Self.fuzzTimeout.count == 95)
        #expect(BoxReduction.factors(from: PixelSize(width: 5, height: 7_630_409), to: PixelSize(width: 1, height: 5)) == (2, 763_040))
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(width: 7, height: 5)
        let image = try BMPCoder().decode(Self.fuzzTimeout, options: options)
        #expect(image.pixelSize == PixelSize(width: 1, height: 5))
        #expect(image.metadata.contains(.thumbnail))
    }

    /// Each block's colour is the alpha-weighted mean (a transparent pixel lends no colour), its
    /// alpha the mean alpha; edge blocks average what they hold.
    @Test func blocksAverageWithAlphaWeights() throws {
        let pixels: [[UInt8]] = [
            [200, 0, 0, 255], [0, 0, 200, 0], [10, 20, 30, 255],
            [100, 0, 0, 255], [0, 50, 0, 255], [10, 20, 30, 255],
        ]
        let bitmap = try Bitmap(width: 3, height: 2, bytes: pixels.flatMap { $0 }, hasAlpha: true)
        let reduced = try BoxReduction.reduce(bitmap, fx: 2, fy: 2)
        #expect(reduced.size == PixelSize(width: 2, height: 1))
        // (200 + 100 + 0) / 3 red, 50 / 3 green, no blue from the transparent pixel; alpha 765 / 4.
        #expect(Array(reduced.bytes[0..<4]) == [100, 17, 0, 191])
        #expect(Array(reduced.bytes[4..<8]) == [10, 20, 30, 255])
    }

    /// On ordinary images the reduced thumbnail stays within a few levels of the direct one.
    @Test func aReducedThumbnailMatchesTheDirectResample() throws {
        let width = 400, height = 300
        var bytes: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width { bytes += [UInt8(x * 255 / (width - 1)), UInt8(y * 255 / (height - 1)), 96, 255] }
        }
        let source = try Bitmap(width: width, height: height, bytes: bytes, hasAlpha: false)
        let target = PixelSize(width: 20, height: 15)
        #expect(BoxReduction.factors(from: source.size, to: target) == (10, 10))
        let reduced = try BoxReduction.thumbnail(source, to: target)
        let direct = try Thumbnail.resize(source, to: target)
        #expect(reduced.size == target)
        let worst = zip(reduced.bytes, direct.bytes).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(worst <= 6, "largest difference \(worst)")
    }
}
