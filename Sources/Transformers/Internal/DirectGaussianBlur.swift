import Foundation
import WebImageCore

/// A Gaussian blur by direct separable convolution with the sampled, normalized Gaussian
/// (taps out to `ceil(4 sigma)`), on premultiplied floats with mirrored edges.
///
/// Used for small radii, where three boxes of a few pixels only roughly approximate the
/// Gaussian; its cost grows with the radius, which stays small here.
struct DirectGaussianBlur {
    /// The kernel's half-width in pixels.
    let reach: Int
    /// `2 reach + 1` weights, summing to 1.
    let weights: [Float]

    /// The kernel for a Gaussian of standard deviation `sigma` (> 0).
    init(sigma: Double) {
        let reach = max(1, Int((4 * sigma).rounded(.up)))
        let raw = (-reach...reach).map { exp(-0.5 * (Double($0) / sigma) * (Double($0) / sigma)) }
        let total = raw.reduce(0, +)
        self.reach = reach
        self.weights = raw.map { Float($0 / total) }
    }

    /// Blurs `bitmap`: rows horizontally into a ring of `2 reach + 2` rows (or all rows, for a
    /// short image), then each output row sums its window of ring rows.
    func apply(to bitmap: Bitmap) throws -> Bitmap {
        let width = bitmap.width
        let height = bitmap.height
        guard width > 0, height > 0 else { return bitmap }
        let rowBytes = width * 4
        let capacity = min(height, 2 * reach + 2)
        let padded = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: width + 2 * reach)
        defer { padded.deallocate() }
        let ring = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: capacity * width)
        defer { ring.deallocate() }
        let accumulator = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: width)
        defer { accumulator.deallocate() }
        let period = 2 * height
        func mirrored(_ index: Int) -> Int {
            var m = index % period
            if m < 0 { m += period }
            return m < height ? m : period - 1 - m
        }

        var cancelled = false
        let bytes = [UInt8](unsafeUninitializedCapacity: rowBytes * height) { buffer, initialized in
            let out = UnsafeMutableRawPointer(buffer.baseAddress!)
            weights.withUnsafeBufferPointer { weightBuffer in
                let center = weightBuffer.baseAddress! + reach  // center[k], k in -reach...reach
                bitmap.bytes.withUnsafeBytes { src in
                    let input = src.baseAddress!
                    var computed = 0
                    for y in 0..<height {
                        // A cancelled job (BlockingWorkExecutor.isCurrentJobCancelled) stops between rows.
                        if BlockingWorkExecutor.isCurrentJobCancelled(beforeRow: y) {
                            cancelled = true
                            break
                        }
                        let needed = min(height - 1, y + reach)
                        while computed <= needed {
                            PremultipliedPixel.loadRow(input + computed * bitmap.bytesPerRow, count: width, into: padded + reach)
                            GaussianBlurKernel.mirrorPadding(padded, count: width, padding: reach, stride: 1)
                            convolveRow(padded + reach, count: width, weights: center, into: ring + (computed % capacity) * width)
                            computed += 1
                        }
                        for x in 0..<width { accumulator[x] = .zero }
                        for k in -reach...reach {
                            let row = ring + (mirrored(y + k) % capacity) * width
                            let w = center[k]
                            for x in 0..<width { accumulator[x] += row[x] * w }
                        }
                        PremultipliedPixel.storeRow(accumulator, count: width, into: out + y * rowBytes)
                    }
                }
            }
            initialized = rowBytes * height
        }
        if cancelled { throw CancellationError() }
        return try Bitmap(width: width, height: height, bytes: bytes, hasAlpha: bitmap.hasAlpha)
    }

    /// One horizontal convolution over a padded row (`row[-reach ..< count + reach]` valid).
    private func convolveRow(_ row: UnsafeMutablePointer<SIMD4<Float>>, count: Int, weights: UnsafePointer<Float>, into target: UnsafeMutablePointer<SIMD4<Float>>) {
        for x in 0..<count {
            var a0 = SIMD4<Float>.zero
            var a1 = SIMD4<Float>.zero
            var k = -reach
            while k < reach {
                a0 += row[x + k] * weights[k]
                a1 += row[x + k + 1] * weights[k + 1]
                k += 2
            }
            a0 += row[x + reach] * weights[reach]
            target[x] = a0 + a1
        }
    }
}
