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
/// Each target pixel is the mean over its whole box, so where the frame covers only part of a
/// box (its edge off the grid) the alpha shrinks with the coverage; ``coverage()`` gives that
/// share for ``ScaledAnimationCanvas`` to blend and dispose the edge pixels in proportion.
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

    /// The frame's pixels on the target canvas, premultiplied: per target pixel of
    /// ``targetRect`` (rows tightly packed) red, green, blue and alpha as fractions of 65535,
    /// colors multiplied by alpha, each the mean over the pixel's whole box (so a box the frame
    /// covers only partly has its alpha scaled by the coverage).
    func premultiplied() -> [UInt16] {
        let width = targetRect.width, height = targetRect.height
        guard width > 0, height > 0 else { return [] }
        let columnBoxes = (0..<width).map { grid.sourceX(targetRect.x + $0 + 1) - grid.sourceX(targetRect.x + $0) }
        let rowBoxes = (0..<height).map { grid.sourceY(targetRect.y + $0 + 1) - grid.sourceY(targetRect.y + $0) }
        var out = [UInt16](repeating: 0, count: width * height * 4)
        sums.withUnsafeBufferPointer { sums in
            out.withUnsafeMutableBufferPointer { out in
                for row in 0..<height {
                    for column in 0..<width {
                        let index = (row * width + column) * 4
                        let alphaSum = sums[index + 3]
                        guard alphaSum > 0 else { continue }
                        let area = UInt64(max(1, rowBoxes[row] * columnBoxes[column]))
                        // c * a (at most 65025) -> 65535: x 257 / 255.
                        let colorDivisor = area * 255
                        for channel in 0..<3 {
                            out[index + channel] = UInt16(min(65535, (sums[index + channel] * 257 + colorDivisor / 2) / colorDivisor))
                        }
                        out[index + 3] = UInt16(min(65535, (alphaSum * 257 + area / 2) / area))
                    }
                }
            }
        }
        return out
    }

    /// How much of each target pixel of ``targetRect`` the frame covers, as a fraction of 65535:
    /// the share of its box's columns times the share of its rows inside the frame's rectangle.
    func coverage() -> [UInt16] {
        let width = targetRect.width, height = targetRect.height
        guard width > 0, height > 0 else { return [] }
        let x0 = sourceRect.x, x1 = sourceRect.x + sourceRect.width
        let y0 = sourceRect.y, y1 = sourceRect.y + sourceRect.height
        let columns = (0..<width).map { index -> Int in
            let start = grid.sourceX(targetRect.x + index), end = grid.sourceX(targetRect.x + index + 1)
            return (min(end, x1) - max(start, x0)) * 65535 / max(1, end - start)
        }
        let rows = (0..<height).map { index -> Int in
            let start = grid.sourceY(targetRect.y + index), end = grid.sourceY(targetRect.y + index + 1)
            return (min(end, y1) - max(start, y0)) * 65535 / max(1, end - start)
        }
        return rows.flatMap { row in columns.map { UInt16(row * $0 / 65535) } }
    }
}
