/// Where one frame of an animation sits on its ``AnimationCanvas`` and how it combines with
/// what is there: the frame control of APNG (`fcTL`), GIF (image descriptor and graphic control
/// extension) and WebP (`ANMF`), in one form.
///
/// | format | ``Blend`` | ``Disposal`` |
/// |---|---|---|
/// | APNG | `APNG_BLEND_OP_SOURCE` → `.source`, `_OVER` → `.over` | `APNG_DISPOSE_OP_NONE` → `.none`, `_BACKGROUND` → `.background`, `_PREVIOUS` → `.previous` |
/// | GIF | always `.over` (transparent pixels leave the canvas) | 0 and 1 → `.none`, 2 → `.background`, 3 → `.previous` |
/// | WebP | `WEBP_MUX_NO_BLEND` → `.source`, `WEBP_MUX_BLEND` → `.over` | `WEBP_MUX_DISPOSE_NONE` → `.none`, `_BACKGROUND` → `.background` |
///
/// The rectangle must lie inside the canvas (``AnimationCanvas/init(width:height:frames:)``
/// checks it): clip it first where the format allows frames to reach past the canvas (GIF).
public struct AnimationFrameLayout: Sendable, Hashable {
    /// How a frame's pixels combine with the canvas.
    public enum Blend: Sendable, Hashable {
        /// Replace the frame's rectangle, alpha included.
        case source
        /// Straight-alpha "source over" the canvas: an opaque pixel replaces, a transparent one
        /// leaves the canvas, a translucent one mixes (rounded to nearest; a fully transparent
        /// result is (0, 0, 0, 0)).
        case over
    }

    /// What happens to the frame's rectangle after the frame has shown, before the next one.
    public enum Disposal: Sendable, Hashable {
        /// Leave the frame on the canvas.
        case none
        /// Clear the rectangle to transparent black (browsers and libwebp clear to transparent,
        /// not to the GIF or WebP background color).
        case background
        /// Restore the rectangle to what it was before the frame. For the first frame that is
        /// the empty canvas, as the APNG specification asks.
        case previous
    }

    /// The left edge of the rectangle on the canvas, in pixels.
    public var x: Int
    /// The top edge of the rectangle on the canvas, in pixels.
    public var y: Int
    /// The width of the rectangle (and of the frame's own pixels), in pixels; may be 0.
    public var width: Int
    /// The height of the rectangle (and of the frame's own pixels), in pixels; may be 0.
    public var height: Int
    /// How the frame's pixels combine with the canvas.
    public var blend: Blend
    /// What happens to the rectangle after the frame.
    public var disposal: Disposal
    /// Whether the canvas can be rebuilt from this frame without the frames before it: the
    /// canvas before it is empty, or the frame defines every canvas pixel (it covers the canvas
    /// and replaces it). Rendering a later frame after a jump back starts at the nearest
    /// keyframe at or before it; frame 0 is always a starting point. Saying `false` is always
    /// correct, only slower for random access.
    public var isKeyframe: Bool

    /// A frame at (`x`, `y`), `width` x `height` pixels.
    public init(x: Int, y: Int, width: Int, height: Int, blend: Blend, disposal: Disposal, isKeyframe: Bool = false) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.blend = blend
        self.disposal = disposal
        self.isKeyframe = isKeyframe
    }
}
