public import WebImageCore
public import WebImageTransformers

/// What a ``ThumborRequest`` does to a source of a known size, with thumbor's semantics: the
/// region of the source kept, the size it is resized to, the canvas it is placed on, the flips.
public struct ThumborPlan: Hashable, Sendable {
    /// The region of the source kept (manual crop and the crop to the requested aspect ratio
    /// combined), in source pixels; `nil` keeps the whole source.
    public var crop: PixelRect?
    /// The size the kept region is resized to (its own size when nothing is resized).
    public var size: PixelSize
    /// The box the result is centred on when `fill(...)` pads a fit-in result; `nil` otherwise.
    public var canvas: PixelSize?
    /// Whether the result is flipped horizontally.
    public var flipsHorizontally: Bool
    /// Whether the result is flipped vertically.
    public var flipsVertically: Bool

    /// A plan from its parts.
    public init(crop: PixelRect? = nil, size: PixelSize, canvas: PixelSize? = nil, flipsHorizontally: Bool = false, flipsVertically: Bool = false) {
        self.crop = crop
        self.size = size
        self.canvas = canvas
        self.flipsHorizontally = flipsHorizontally
        self.flipsVertically = flipsVertically
    }
}
