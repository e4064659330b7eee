import Foundation
import WebImageCore

/// thumbor's `sharpen(amount,radius,luminance_only)` filter with its own arithmetic
/// (`thumbor/ext/filters/lib/wavelet_sharpen.c`, after Marco Rossini's wavelet sharpen for
/// GIMP): single-precision, in thumbor's order of operations, so that results match.
///
/// Each channel, scaled to 0...1, is split by five levels of an à trous wavelet (the "hat"
/// `[1 2 1] / 4` with holes of 1, 2, 4, 8, 16 pixels, across then down, edges mirrored); the
/// detail of level `l` is multiplied by `1 + amount * e^(-(l - radius)^2 / 1.5)` and the
/// levels are added up again. With `luminance_only`, the pixel is converted to YCbCr (JPEG's
/// coefficients, in `float`) and only Y is sharpened. The result is clamped to 0...255 and
/// truncated; alpha is kept.
///
/// thumbor reads outside its rows and columns for an image 31 pixels or less on a side (the
/// widest hole, 16, reaches past the far edge before its mirroring starts: the next row's
/// pixels, or past the buffer); this filter mirrors, again as often as needed, instead.
enum ThumborSharpen {
    /// The levels of the wavelet.
    static let levels = 5

    /// `bitmap` sharpened.
    /// - Throws: `CancellationError` when the job is cancelled (checked between rows).
    static func apply(_ bitmap: Bitmap, amount: Double, radius: Double, luminanceOnly: Bool) throws -> Bitmap {
        let width = bitmap.width, height = bitmap.height
        guard width > 0, height > 0 else { return bitmap }
        let area = width * height
        var output = bitmap
        // One channel at a time: the channel and the wavelet's two low-pass planes, one after
        // the other in one buffer.
        var storage = [Float](repeating: 0, count: 3 * area)
        try storage.withUnsafeMutableBufferPointer { storage in
            let plane = storage.baseAddress!
            for channel in luminanceOnly ? [0] : [0, 1, 2] {
                bitmap.bytes.withUnsafeBufferPointer { pixels in
                    for y in 0..<height {
                        var offset = y * bitmap.bytesPerRow
                        for x in 0..<width {
                            let value: Float = luminanceOnly
                                ? luma(Float(pixels[offset]), Float(pixels[offset + 1]), Float(pixels[offset + 2]))
                                : Float(pixels[offset + channel])
                            plane[y * width + x] = value / 255
                            offset += 4
                        }
                    }
                }
                try sharpen(planes: [plane, plane + area, plane + 2 * area], width: width, height: height, amount: amount, radius: radius)
                output.bytes.withUnsafeMutableBufferPointer { pixels in
                    for y in 0..<height {
                        var offset = y * bitmap.bytesPerRow
                        for x in 0..<width {
                            let sharpened = plane[y * width + x] * 255
                            if luminanceOnly {
                                // Cb and Cr went through the same scaling in thumbor, unsharpened.
                                let (cb, cr) = chroma(Float(pixels[offset]), Float(pixels[offset + 1]), Float(pixels[offset + 2]))
                                let blue = (cb / 255) * 255 - 128, red = (cr / 255) * 255 - 128
                                pixels[offset] = byte(sharpened + 1.402 * red)
                                pixels[offset + 1] = byte(sharpened - 0.34414 * blue - 0.71414 * red)
                                pixels[offset + 2] = byte(sharpened + 1.772 * blue)
                            } else {
                                pixels[offset + channel] = byte(sharpened)
                            }
                            offset += 4
                        }
                    }
                }
            }
        }
        return output
    }

    /// thumbor's `rgb2ycbcr`'s Y.
    private static func luma(_ r: Float, _ g: Float, _ b: Float) -> Float {
        0.2990 * r + 0.5870 * g + 0.1140 * b
    }

    /// thumbor's `rgb2ycbcr`'s Cb and Cr.
    private static func chroma(_ r: Float, _ g: Float, _ b: Float) -> (Float, Float) {
        let cb = -0.1687 * r - 0.3313 * g + 0.5000 * b + 128
        let cr = 0.5000 * r - 0.4187 * g - 0.0813 * b + 128
        return (cb, cr)
    }

    /// `ADJUST_COLOR` on a `float`, then C's conversion to `unsigned char`.
    private static func byte(_ value: Float) -> UInt8 {
        let clamped: Float = value > 255 ? 255 : (value < 0 ? 0 : value)
        return ThumborCArithmetic.byte(truncating: Double(clamped))
    }

    /// thumbor's `wavelet_sharpen` on `planes[0]`, with `planes[1]` and `planes[2]` as its
    /// low-pass planes.
    private static func sharpen(planes: [UnsafeMutablePointer<Float>], width: Int, height: Int, amount: Double, radius: Double) throws {
        let area = width * height
        var high = 0
        var low = 1
        for level in 0..<levels {
            low = (level & 1) + 1
            let hole = 1 << level
            try hatAcross(planes[high], into: planes[low], width: width, height: height, hole: hole)
            try hatDown(planes[low], width: width, height: height, hole: hole)
            let distance = Double(level) - radius
            let weight = Float(amount * Foundation.exp(-distance * distance / 1.5) + 1)
            let detail = planes[high], smooth = planes[low], result = planes[0]
            for index in 0..<area {
                detail[index] -= smooth[index]
                detail[index] *= weight
                if high != 0 { result[index] += detail[index] }
            }
            high = low
        }
        let result = planes[0], smooth = planes[low]
        for index in 0..<area { result[index] = result[index] + smooth[index] }
    }

    /// `index` reflected into `0..<size` (thumbor's `sc - i` and `2 * size - 2 - (i + sc)`,
    /// repeated as often as a small image needs).
    private static func mirrored(_ index: Int, size: Int) -> Int {
        guard size > 1 else { return 0 }
        let period = 2 * (size - 1)
        var folded = index % period
        if folded < 0 { folded += period }
        return folded < size ? folded : period - folded
    }

    /// Each row of `source` through thumbor's `hat_transform`, times 0.25, into `target`.
    private static func hatAcross(_ source: UnsafeMutablePointer<Float>, into target: UnsafeMutablePointer<Float>, width: Int, height: Int, hole: Int) throws {
        for y in 0..<height {
            if BlockingWorkExecutor.isCurrentJobCancelled(beforeRow: y) { throw CancellationError() }
            let row = y * width
            for x in 0..<width {
                let left = x - hole >= 0 ? x - hole : mirrored(x - hole, size: width)
                let right = x + hole < width ? x + hole : mirrored(x + hole, size: width)
                let sum = 2 * source[row + x] + source[row + left] + source[row + right]
                target[row + x] = sum * 0.25
            }
        }
    }

    /// Each column of `plane` through thumbor's `hat_transform`, times 0.25, in place (a band
    /// of columns at a time through a buffer, as thumbor's column buffer).
    private static func hatDown(_ plane: UnsafeMutablePointer<Float>, width: Int, height: Int, hole: Int) throws {
        let band = min(width, 64)
        var buffer = [Float](repeating: 0, count: band * height)
        try buffer.withUnsafeMutableBufferPointer { buffer in
            for first in stride(from: 0, to: width, by: band) {
                try BlockingWorkExecutor.checkCurrentJobCancellation()
                let count = min(band, width - first)
                for y in 0..<height {
                    let up = (y - hole >= 0 ? y - hole : mirrored(y - hole, size: height)) * width + first
                    let down = (y + hole < height ? y + hole : mirrored(y + hole, size: height)) * width + first
                    let row = y * width + first
                    for x in 0..<count {
                        buffer[y * band + x] = 2 * plane[row + x] + plane[up + x] + plane[down + x]
                    }
                }
                for y in 0..<height {
                    let row = y * width + first
                    for x in 0..<count { plane[row + x] = buffer[y * band + x] * 0.25 }
                }
            }
        }
    }
}
