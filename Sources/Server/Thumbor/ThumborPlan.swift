public import WebImageCore
public import WebImageTransformers

/// What a ``ThumborRequest`` does to a source of a known size, with thumbor 7.8's semantics
/// (`thumbor/transformer.py` and the geometry filters): the region of the source kept, the
/// size it is resized to, the canvas `fill` places it on, and the flips.
///
/// Apply it in thumbor's order:
/// 1. crop the (EXIF-oriented) source to ``crop``;
/// 2. resize to ``size`` (this already includes a `fit-in` box, `no_upscale()`, `upscale()` and
///    `stretch()`);
/// 3. flip (``flipsHorizontally``, then ``flipsVertically``);
/// 4. run the other filters in the URL's order: `rotate` turns the current image
///    counter-clockwise, `fill` places the current image on a ``canvas``-sized canvas at
///    ``placement(of:)``, the colour filters act on the current image (canvas included once
///    filled), `round_corner` on the current image's corners.
public struct ThumborPlan: Hashable, Sendable {
    /// The region of the source kept (trim, manual crop and the crop to the requested aspect
    /// ratio combined), in source pixels; `nil` keeps the whole source.
    public var crop: PixelRect?
    /// The size the kept region is resized to (its own size when nothing is resized), before
    /// any `rotate` filter turns it.
    public var size: PixelSize
    /// The size of the canvas `fill(...)` places the image on (thumbor: the requested width and
    /// height after `fit-in`, a 0 or absent side taking the image's), in the orientation the
    /// image has when `fill` runs (after the `rotate` filters before it); `nil` without `fill`.
    public var canvas: PixelSize?
    /// Whether the result is flipped horizontally (a `-` before the width).
    public var flipsHorizontally: Bool
    /// Whether the result is flipped vertically (a `-` before the height).
    public var flipsVertically: Bool

    /// A plan from its parts.
    public init(crop: PixelRect? = nil, size: PixelSize, canvas: PixelSize? = nil, flipsHorizontally: Bool = false, flipsVertically: Bool = false) {
        self.crop = crop
        self.size = size
        self.canvas = canvas
        self.flipsHorizontally = flipsHorizontally
        self.flipsVertically = flipsVertically
    }

    /// Where `fill` puts an image of `imageSize` on the ``canvas``: centred, the offset rounded
    /// down (thumbor: `(canvas - image) // 2`); the rectangle reaches outside the canvas (a
    /// negative origin) when the image is larger, and that part is cut off. `nil` without a
    /// canvas.
    public func placement(of imageSize: PixelSize) -> PixelRect? {
        guard let canvas else { return nil }
        func floorHalf(_ value: Int) -> Int { value >= 0 ? value / 2 : -((-value + 1) / 2) }
        return PixelRect(x: floorHalf(canvas.width - imageSize.width), y: floorHalf(canvas.height - imageSize.height), size: imageSize)
    }
}
