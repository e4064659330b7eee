import Foundation
import Testing
import WebImageTestSupport
@testable import WebImageCoders
import WebImageCore

/// JPEG thumbnails and scale-downs: DCT scaling, then the C shim's Lanczos-3 resampler, which
/// must give what Core's `Bitmap.resampled(to:filter: .lanczos3)` gives.
@Suite(.onOwnThreads) struct JPEGScaleDownTests {
    /// Pseudo-random pixels (an LCG), so that every tap and both lobes of the kernel matter; with
    /// `alpha`, a third of the pixels are transparent and a third half-transparent.
    static func noise(width: Int, height: Int, alpha: Bool, seed: UInt32 = 12345) throws -> Bitmap {
        var state = seed
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        for index in 0..<(width * height) {
            for channel in 0..<3 {
                state = state &* 1_664_525 &+ 1_013_904_223
                bytes[index * 4 + channel] = UInt8(truncatingIfNeeded: state >> 24)
            }
            state = state &* 1_664_525 &+ 1_013_904_223
            bytes[index * 4 + 3] = alpha ? [0, 128, 255][Int(state >> 24) % 3] : 255
        }
        return try Bitmap(width: width, height: height, bytes: bytes, hasAlpha: alpha)
    }

    /// The largest difference of any channel of any pixel.
    static func maximumDifference(_ a: Bitmap, _ b: Bitmap) -> Int {
        zip(a.bytes, b.bytes).reduce(0) { max($0, abs(Int($1.0) - Int($1.1))) }
    }

    @Test(arguments: [
        (97, 61, 40, 25, false), (97, 61, 40, 25, true),
        (120, 80, 111, 74, false), (120, 80, 111, 74, true),  // a scale-down near 1
        (64, 48, 64, 20, true), (64, 48, 20, 48, true),       // one side unchanged
        (9, 7, 1, 1, true), (30, 20, 45, 31, true),           // down to one pixel; up
    ])
    func cResamplerMatchesCoreResampler(_ width: Int, _ height: Int, _ targetWidth: Int, _ targetHeight: Int, _ alpha: Bool) throws {
        let source = try Self.noise(width: width, height: height, alpha: alpha)
        let size = PixelSize(width: targetWidth, height: targetHeight)
        let ours = try JPEGDecoding.resampled(source, to: size)
        let core = try source.resampled(to: size, filter: .lanczos3)
        #expect(ours.size == size)
        #expect(ours.hasAlpha == alpha)
        #expect(Self.maximumDifference(ours, core) <= 1)
    }

    @Test func rowPaddingIsSkipped() throws {
        let tight = try Self.noise(width: 31, height: 17, alpha: true)
        var padded = [UInt8](repeating: 0x5A, count: (31 * 4 + 12) * 17)
        for y in 0..<17 {
            padded.replaceSubrange(y * (31 * 4 + 12)..<(y * (31 * 4 + 12) + 31 * 4), with: tight.bytes[(y * 31 * 4)..<((y + 1) * 31 * 4)])
        }
        let source = try Bitmap(width: 31, height: 17, bytesPerRow: 31 * 4 + 12, bytes: padded, hasAlpha: true)
        let size = PixelSize(width: 13, height: 9)
        #expect(try JPEGDecoding.resampled(source, to: size) == JPEGDecoding.resampled(tight, to: size))
    }

    /// A target just under M/8 of the source decodes at M/8 (every M from 1 to 7, through
    /// libjpeg's scaled IDCTs) and is the picture a full decode resampled to that size gives.
    @Test(arguments: 1...7)
    func everyDCTScaleGivesTheFullDecodesPicture(_ eighths: Int) throws {
        let source = TestImages.gradient(width: 640, height: 480, seed: 90)
        let data = try JPEGCoder().encode(WebImage(bitmap: source), as: .jpeg, options: ImageEncodeOptions(compressionQuality: 0.95))
        let target = PixelSize(width: 640 * eighths / 8 - 1, height: (640 * eighths / 8 - 1) * 3 / 4)
        #expect(JPEGDecoding.dctScale(from: source.size, to: target) == Int32(eighths))
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = target
        let thumbnail = try JPEGCoder().decode(data, options: options)
        #expect(thumbnail.pixelSize == target)
        #expect(thumbnail.metadata.contains(.thumbnail))
        let reference = try JPEGCoder().decode(data).bitmap.resampled(to: target, filter: .lanczos3)
        let differences = zip(thumbnail.bitmap.bytes, reference.bytes).map { abs(Int($0) - Int($1)) }
        #expect(differences.max() ?? 0 <= 12)
        #expect(Double(differences.reduce(0, +)) / Double(differences.count) < 1.5)
    }

    /// SDWebImage's 5250x3450 test photo under the default 60 MB scale-down budget (0.93 of each
    /// side: the nearest DCT scale is 8/8, so nearly the whole image is resampled). The resample
    /// is C so that this takes about a second in a debug build, not over a minute.
    @Test(.enabled(if: TestData.hasSDWebImage, "../shared/testdata/sdwebimage is absent: large JPEG scale-down skipped"))
    func largePhotoIsScaledDownToTheByteBudget() throws {
        let data = try Data(contentsOf: TestData.sdWebImage.appendingPathComponent("TestImageLarge.jpg"))
        var options = ImageDecodeOptions()
        options.scaleDownLimitBytes = ImageDecodeOptions.defaultScaleDownLimitBytes
        let image = try JPEGCoder().decode(data, options: options)
        let expected = options.targetPixelSize(for: PixelSize(width: 5250, height: 3450))
        #expect(image.pixelSize == expected)
        #expect(image.pixelSize.width * image.pixelSize.height * 4 <= ImageDecodeOptions.defaultScaleDownLimitBytes)
        #expect(image.metadata.contains(.thumbnail))
        #expect(!image.bitmap.hasAlpha)

        // Every pixel is the full-size picture's at the same place, within what resampling a
        // detailed photo changes: a grid of points, compared with the full-size decode.
        let full = try JPEGCoder().decode(data).bitmap
        var total = 0, samples = 0
        for gy in 0..<40 {
            for gx in 0..<40 {
                let x = (gx * 2 + 1) * expected.width / 80, y = (gy * 2 + 1) * expected.height / 80
                let sx = x * full.width / expected.width, sy = y * full.height / expected.height
                let a = image.bitmap[x, y], b = full[sx, sy]
                total += abs(Int(a.red) - Int(b.red)) + abs(Int(a.green) - Int(b.green)) + abs(Int(a.blue) - Int(b.blue))
                samples += 3
                #expect(a.alpha == 255)
            }
        }
        #expect(Double(total) / Double(samples) < 16, "mean difference \(Double(total) / Double(samples))")
    }
}
