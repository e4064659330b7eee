public import WebImageCore
import Foundation

extension Pixels {
    /// The peak signal-to-noise ratio of `a` against `b`, in dB, over the four channels with
    /// each colour premultiplied by its alpha (so the colour of a fully transparent pixel, which
    /// formats and decoders leave as they like, does not count); `.infinity` for identical
    /// images, `-.infinity` for different sizes. 40 dB is a mean squared error of 6.5 (an RMS
    /// difference of 2.6 of 255).
    /// - Parameters:
    ///   - a: The image under test.
    ///   - b: The reference, of the same size.
    ///   - includeAlpha: `false` compares the colour alone, straight, as if both were opaque.
    ///   - rowStep: Compares every `rowStep`-th row only (for large images in debug builds).
    public static func psnr(_ a: Bitmap, _ b: Bitmap, includeAlpha: Bool = true, rowStep: Int = 1) -> Double {
        guard a.size == b.size else { return -.infinity }
        let width = a.width, height = a.height
        // Squared differences in units of 1/255 (colour x alpha), summed exactly in integers.
        var squares: Int64 = 0
        var rows = 0
        a.bytes.withUnsafeBytes { p in
            b.bytes.withUnsafeBytes { q in
                for y in stride(from: 0, to: height, by: max(1, rowStep)) {
                    rows += 1
                    var i = y * a.bytesPerRow, j = y * b.bytesPerRow
                    for _ in 0..<width {
                        let pa = includeAlpha ? Int64(p[i + 3]) : 255, qa = includeAlpha ? Int64(q[j + 3]) : 255
                        for c in 0..<3 {
                            let d = Int64(p[i + c]) * pa - Int64(q[j + c]) * qa
                            squares += d * d
                        }
                        let d = (pa - qa) * 255
                        squares += d * d
                        i += 4
                        j += 4
                    }
                }
            }
        }
        let mean = Double(squares) / (255 * 255) / Double(max(1, width * rows * 4))
        return mean == 0 ? .infinity : 10 * log10(255 * 255 / mean)
    }
}
