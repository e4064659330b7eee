import WebImageCore

/// Area-averages (box filter) one animation frame's own pixels into its rectangle on a
/// ``ThumbnailGrid``'s target canvas, as the frame's rows are decoded: the frame is never held
/// at source size. Memory: 32 bytes per target pixel of the frame's rectangle plus one
/// `Int` per source column of the frame.
///
/// Averaging is in premultiplied alpha (a target pixel's color is the alpha-weighted mean of
/// its source pixels), so transparent pixels do not darken their neighbours. Source pixels that
/// never arrive (truncated data) count as transparent.
///
/// The divisor of a target pixel depends on how the frame is blended:
/// - ``AnimationFrameLayout/Blend/over`` (GIF, APNG `APNG_BLEND_OP_OVER`): the whole box of
///   the target pixel. Where the frame covers only part of a box (its edge off the grid), the
///   result's alpha shrinks with the coverage, and blending it over the canvas mixes in what
///   was there, as a full-size decode downscaled would show (exact where the canvas under the
///   box is one colour).
/// - ``AnimationFrameLayout/Blend/source`` (`APNG_BLEND_OP_SOURCE`): only the frame's own
///   pixels in the box, so the frame's average replaces the whole target pixel at its edges
///   (an approximation: full size, the part of the box outside the frame would keep the canvas).
struct FrameDownsampler {
    /// The frame's rectangle on the source canvas.
    let sourceRect: AnimationFrameLayout
    /// The frame's rectangle on the target canvas (``ThumbnailGrid/map(_:)`` of ``sourceRect``).
    let targetRect: AnimationFrameLayout
    private let grid: ThumbnailGrid
    /// For each source column of the frame, its target column relative to `targetRect.x`.
    private var columns: [Int]
    /// Per target pixel of the frame's rectangle: sum of r*a, g*a, b*a and a.
    private var sums: [UInt64]

    /// A downsampler of a frame at `layout` (a rectangle inside `grid.source`).
    init(layout: AnimationFrameLayout, grid: ThumbnailGrid) {
        sourceRect = layout
        targetRect = grid.map(layout)
        self.grid = grid
        let origin = targetRect.x
        columns = (0..<layout.width).map { grid.targetX(layout.x + $0) - origin }
        sums = [UInt64](repeating: 0, count: targetRect.width * targetRect.height * 4)
    }

    /// Adds `count` RGBA8 (straight alpha) pixels of source canvas row `y`: pixel `k` is at
    /// source canvas column `sourceRect.x + firstColumn + k * step`. Rows outside the frame's
    /// rectangle, and pixels past its right edge, are ignored.
    /// - Parameters:
    ///   - firstColumn: The column of the first pixel, relative to the frame's rectangle.
    ///   - step: The distance between pixels in columns (1, or an Adam7 pass's step).
    mutating func add(row y: Int, pixels: UnsafeRawPointer, firstColumn: Int, step: Int = 1, count: Int) {
        guard y >= sourceRect.y, y < sourceRect.y + sourceRect.height, count > 0, firstColumn >= 0 else { return }
        let rowOffset = (grid.targetY(y) - targetRect.y) * targetRect.width
        let width = sourceRect.width
        columns.withUnsafeBufferPointer { columns in
            sums.withUnsafeMutableBufferPointer { sums in
                var column = firstColumn
                for k in 0..<count {
                    guard column < width else { break }
                    let pixel = pixels.loadUnaligned(fromByteOffset: k * 4, as: UInt32.self)
                    let alpha = UInt64(pixel >> 24)
                    if alpha != 0 {
                        let base = (rowOffset + columns[column]) * 4
                        sums[base] &+= UInt64(pixel & 0xFF) &* alpha
                        sums[base + 1] &+= UInt64(pixel >> 8 & 0xFF) &* alpha
                        sums[base + 2] &+= UInt64(pixel >> 16 & 0xFF) &* alpha
                        sums[base + 3] &+= alpha
                    }
                    column += step
                }
            }
        }
    }

    /// The frame's pixels on the target canvas: `targetRect.width * targetRect.height * 4`
    /// bytes, RGBA8 with straight alpha, rows tightly packed (what ``AnimationCanvas/render(_:decode:)``
    /// takes for the frame's mapped rectangle).
    func finish() -> [UInt8] {
        let width = targetRect.width, height = targetRect.height
        guard width > 0, height > 0 else { return [] }
        let wholeBox = sourceRect.blend == .over
        let x0 = sourceRect.x, x1 = sourceRect.x + sourceRect.width
        let y0 = sourceRect.y, y1 = sourceRect.y + sourceRect.height
        // How many source columns (rows) each target column (row) of the rectangle counts.
        let columnCounts = (0..<width).map { index -> UInt64 in
            let column = targetRect.x + index
            let start = grid.sourceX(column), end = grid.sourceX(column + 1)
            return UInt64(wholeBox ? end - start : min(end, x1) - max(start, x0))
        }
        let rowCounts = (0..<height).map { index -> UInt64 in
            let row = targetRect.y + index
            let start = grid.sourceY(row), end = grid.sourceY(row + 1)
            return UInt64(wholeBox ? end - start : min(end, y1) - max(start, y0))
        }
        return PixelBuffer.make(count: width * height * 4) { out in
            sums.withUnsafeBufferPointer { sums in
                for row in 0..<height {
                    for column in 0..<width {
                        let index = (row * width + column) * 4
                        let alphaSum = sums[index + 3]
                        guard alphaSum > 0 else {
                            out[index] = 0; out[index + 1] = 0; out[index + 2] = 0; out[index + 3] = 0
                            continue
                        }
                        let area = max(1, rowCounts[row] * columnCounts[column])
                        let half = alphaSum / 2
                        out[index] = UInt8(min(255, (sums[index] + half) / alphaSum))
                        out[index + 1] = UInt8(min(255, (sums[index + 1] + half) / alphaSum))
                        out[index + 2] = UInt8(min(255, (sums[index + 2] + half) / alphaSum))
                        out[index + 3] = UInt8(min(255, (alphaSum + area / 2) / area))
                    }
                }
            }
        }
    }
}
