import Foundation
import WebImageCore

/// thumbor's `convolution(...)` and `blur(...)` filters with its own arithmetic
/// (`thumbor/ext/filters/_convolution.c`, `thumbor/filters/blur.py`).
///
/// Every pixel's channels are the sum, in double precision and in thumbor's order (kernel rows
/// top to bottom, each left to right), of the neighbours' 8-bit values times the kernel's,
/// edges repeated; each sum is truncated to an integer and clamped to 0...255. All four
/// channels of an image with alpha are convolved (straight alpha, as Pillow holds it); an
/// opaque image's alpha stays 255, as thumbor's RGB image has none.
///
/// `blur(radius, sigma)` is two such passes of thumbor's one-dimensional kernel, across then
/// down, each rounded to 8 bits: `2 * radius + 1` taps of `e^(-x^2 / (2 sigma^2)) / sqrt(2 pi sigma^2)`,
/// normalised to sum 1 (so a Gaussian cut at the radius, unlike ``/WebImageTransformers/BlurTransformer``'s).
enum ThumborConvolution {
    /// `bitmap` convolved with `kernel` (row by row, `columns` to a row; an odd number of rows
    /// and of columns), divided by the kernel's sum when `normalize` and the sum is not 0.
    /// - Throws: `CancellationError` when the job is cancelled (checked between rows).
    static func apply(_ bitmap: Bitmap, kernel: [Double], columns: Int, normalize: Bool) throws -> Bitmap {
        precondition(columns > 0 && kernel.count % columns == 0, "a kernel of whole rows")
        var weights = kernel
        // thumbor sums the items in order and divides each by the sum.
        let sum = kernel.reduce(0, +)
        if normalize, sum != 0 { weights = kernel.map { $0 / sum } }
        return try convolve(bitmap, weights: weights, columns: columns)
    }

    /// thumbor's `blur(radius, sigma)`: its one-dimensional kernel across, then down.
    /// - Parameters:
    ///   - radius: The kernel's reach, 1 to 150 (the parser caps it).
    ///   - sigma: The deviation (thumbor uses the radius as written when it is 0).
    static func blur(_ bitmap: Bitmap, radius: Int, sigma: Double) throws -> Bitmap {
        let kernel = blurKernel(radius: radius, sigma: sigma)
        let across = try apply(bitmap, kernel: kernel, columns: kernel.count, normalize: true)
        return try apply(across, kernel: kernel, columns: 1, normalize: true)
    }

    /// thumbor's `generate_1d_matrix(sigma, radius)`: `2 * radius + 1` values of
    /// `e ** -(x * x / (2 sigma^2)) / sqrt(2 sigma^2 * pi)`, `x` from `-radius` to `radius`,
    /// with Python's arithmetic (`math.e ** y` is C's `pow(e, y)`).
    static func blurKernel(radius: Int, sigma: Double) -> [Double] {
        let twoSigmaSquared = 2 * sigma * sigma
        let scale = (twoSigmaSquared * Double.pi).squareRoot()
        return (-radius...radius).map { x in
            Foundation.pow(M_E, -(Double(x * x) / twoSigmaSquared)) / scale
        }
    }

    /// The convolution itself, with `weights` as given.
    private static func convolve(_ bitmap: Bitmap, weights: [Double], columns: Int) throws -> Bitmap {
        let width = bitmap.width, height = bitmap.height
        guard width > 0, height > 0 else { return bitmap }
        let rows = weights.count / columns
        let reachX = columns / 2, reachY = rows / 2
        let convolvesAlpha = bitmap.hasAlpha
        var output = bitmap
        var padded = [SIMD4<Double>](repeating: .zero, count: width + 2 * reachX)
        var sums = [SIMD4<Double>](repeating: .zero, count: width)
        var cancelled = false
        bitmap.bytes.withUnsafeBufferPointer { source in
            output.bytes.withUnsafeMutableBufferPointer { target in
                weights.withUnsafeBufferPointer { weights in
                    padded.withUnsafeMutableBufferPointer { padded in
                        sums.withUnsafeMutableBufferPointer { sums in
                            for y in 0..<height {
                                if BlockingWorkExecutor.isCurrentJobCancelled(beforeRow: y) {
                                    cancelled = true
                                    return
                                }
                                for x in 0..<width { sums[x] = .zero }
                                for kernelRow in 0..<rows {
                                    let sourceRow = min(height - 1, max(0, y + kernelRow - reachY)) * bitmap.bytesPerRow
                                    for index in 0..<padded.count {
                                        let offset = sourceRow + min(width - 1, max(0, index - reachX)) * 4
                                        padded[index] = SIMD4(Double(source[offset]), Double(source[offset + 1]), Double(source[offset + 2]), Double(source[offset + 3]))
                                    }
                                    let rowWeights = kernelRow * columns
                                    for x in 0..<width {
                                        var sum = sums[x]
                                        for column in 0..<columns {
                                            sum += padded[x + column] * weights[rowWeights + column]
                                        }
                                        sums[x] = sum
                                    }
                                }
                                var offset = y * bitmap.bytesPerRow
                                for x in 0..<width {
                                    let sum = sums[x]
                                    target[offset] = channel(sum[0])
                                    target[offset + 1] = channel(sum[1])
                                    target[offset + 2] = channel(sum[2])
                                    if convolvesAlpha { target[offset + 3] = channel(sum[3]) }
                                    offset += 4
                                }
                            }
                        }
                    }
                }
            }
        }
        if cancelled { throw CancellationError() }
        return output
    }

    /// `ADJUST_COLOR((int)sum)`.
    private static func channel(_ sum: Double) -> UInt8 {
        ThumborCArithmetic.clamp(Int(ThumborCArithmetic.int32(truncating: sum)))
    }
}
