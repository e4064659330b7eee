import WebImageCore

/// How an animation's source canvas maps onto a smaller target canvas, for decoding every
/// frame at thumbnail size (the GIF and APNG providers).
///
/// Source column `x` falls in target column `x * target.width / source.width` (rounded down),
/// and likewise for rows: each source pixel belongs to exactly one target pixel, whose "box" is
/// the source pixels that fall in it. A frame's rectangle maps to the target pixels its source
/// pixels fall in, so a frame that covers only part of a box at its edge still owns that whole
/// target pixel (the approximation at frame edges; see ``FrameDownsampler``).
struct ThumbnailGrid: Sendable {
    /// The source canvas.
    let source: PixelSize
    /// The target canvas, no larger than ``source`` on either side, at least 1x1.
    let target: PixelSize

    /// The target column of source column `x`.
    @inline(__always) func targetX(_ x: Int) -> Int { x * target.width / source.width }
    /// The target row of source row `y`.
    @inline(__always) func targetY(_ y: Int) -> Int { y * target.height / source.height }
    /// The first source column of target column `column` (`source.width` past the last).
    @inline(__always) func sourceX(_ column: Int) -> Int { (column * source.width + target.width - 1) / target.width }
    /// The first source row of target row `row` (`source.height` past the last).
    @inline(__always) func sourceY(_ row: Int) -> Int { (row * source.height + target.height - 1) / target.height }

    /// `layout` (a rectangle inside the source canvas) mapped to the target canvas: the target
    /// pixels its source pixels fall in; an empty rectangle stays empty (at the origin). Blend,
    /// disposal and the keyframe flag are kept.
    func map(_ layout: AnimationFrameLayout) -> AnimationFrameLayout {
        var mapped = layout
        guard layout.width > 0, layout.height > 0 else {
            mapped.x = 0
            mapped.y = 0
            mapped.width = 0
            mapped.height = 0
            return mapped
        }
        let x0 = targetX(layout.x), x1 = targetX(layout.x + layout.width - 1) + 1
        let y0 = targetY(layout.y), y1 = targetY(layout.y + layout.height - 1) + 1
        mapped.x = x0
        mapped.y = y0
        mapped.width = x1 - x0
        mapped.height = y1 - y0
        return mapped
    }
}
