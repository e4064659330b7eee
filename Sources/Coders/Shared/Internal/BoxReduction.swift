import WebImageCore

/// A cheap integer reduction before a thumbnail's Lanczos resample (as Pillow's `reduce` with a
/// reducing gap): each block of `fx` x `fy` source pixels becomes one pixel, its colour the
/// alpha-weighted mean (so transparent pixels lend no colour) and its alpha the mean alpha.
///
/// Lanczos-3 work grows with the source (about 6 taps per source pixel and axis, plus weights
/// scaled by the ratio), so shrinking 38 MP to 1x5 costs seconds; one pass of sums first makes it
/// linear and small, and the resample that follows still sees at least twice the target size.
enum BoxReduction {
    /// The factors that leave at least `gap` times the target on each axis (1 = no reduction).
    static func factors(from source: PixelSize, to target: PixelSize, gap: Int = 2) -> (x: Int, y: Int) {
        (max(1, source.width / max(1, target.width * gap)), max(1, source.height / max(1, target.height * gap)))
    }

    /// `bitmap` reduced so that it is still at least twice `target` on each axis, then resampled
    /// to `target` with ``Thumbnail/resize(_:to:)``.
    static func thumbnail(_ bitmap: Bitmap, to target: PixelSize) throws -> Bitmap {
        let (fx, fy) = factors(from: bitmap.size, to: target)
        return try Thumbnail.resize(fx == 1 && fy == 1 ? bitmap : reduce(bitmap, fx: fx, fy: fy), to: target)
    }

    /// The size of `size` reduced by `fx` x `fy` blocks: `ceil(width / fx)` x `ceil(height / fy)`
    /// (edge blocks hold what is left).
    static func reducedSize(of size: PixelSize, fx: Int, fy: Int) -> PixelSize {
        PixelSize(width: (size.width + fx - 1) / fx, height: (size.height + fy - 1) / fy)
    }

    /// `bitmap` with every `fx` x `fy` block averaged into one pixel (edge blocks average what
    /// they hold): ``reducedSize(of:fx:fy:)``.
    static func reduce(_ bitmap: Bitmap, fx: Int, fy: Int) throws -> Bitmap {
        let reduced = reducedSize(of: bitmap.size, fx: fx, fy: fy)
        let width = reduced.width, height = reduced.height
        var sums = [UInt64](repeating: 0, count: width * 4)
        var counts = [UInt64](repeating: 0, count: width)
        var output = [UInt8](repeating: 0, count: width * height * 4)
        bitmap.bytes.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { out in
                for row in 0..<height {
                    for index in sums.indices { sums[index] = 0 }
                    for index in counts.indices { counts[index] = 0 }
                    for y in row * fy..<min(bitmap.height, (row + 1) * fy) {
                        let base = y * bitmap.bytesPerRow
                        for x in 0..<bitmap.width {
                            let p = base + x * 4, column = x / fx
                            let alpha = UInt64(source[p + 3])
                            sums[column * 4] += UInt64(source[p]) * alpha
                            sums[column * 4 + 1] += UInt64(source[p + 1]) * alpha
                            sums[column * 4 + 2] += UInt64(source[p + 2]) * alpha
                            sums[column * 4 + 3] += alpha
                            counts[column] += 1
                        }
                    }
                    for column in 0..<width {
                        let o = (row * width + column) * 4, alphaSum = sums[column * 4 + 3]
                        if alphaSum > 0 {
                            out[o] = UInt8((sums[column * 4] + alphaSum / 2) / alphaSum)
                            out[o + 1] = UInt8((sums[column * 4 + 1] + alphaSum / 2) / alphaSum)
                            out[o + 2] = UInt8((sums[column * 4 + 2] + alphaSum / 2) / alphaSum)
                        }
                        out[o + 3] = UInt8((alphaSum + counts[column] / 2) / max(1, counts[column]))
                    }
                }
            }
        }
        return try Bitmap(width: width, height: height, bytes: output, hasAlpha: bitmap.hasAlpha)
    }
}
