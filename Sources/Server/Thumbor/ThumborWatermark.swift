/// The arguments of thumbor's `watermark(url,x,y,alpha[,w_ratio,h_ratio])` filter, as thumbor
/// 7.8 reads them (`thumbor/filters/watermark.py`).
///
/// The watermark is another image, loaded like the request's source (the same source rules,
/// limits, caches and coalescing); it is made more transparent by ``alpha``, scaled by the
/// ratios when one is given, and composited over the image at ``x``, ``y`` (thumbor's
/// `_composite`: "over" with both images' alpha).
///
/// ```swift
/// // watermark(logo.png,-10,center,30,20)
/// ThumborWatermark(source: "logo.png", x: .fromEnd(10), y: .center, alpha: 30, widthRatio: 20)
/// ```
public struct ThumborWatermark: Hashable, Sendable {
    /// Where the watermark goes along one axis.
    public enum Position: Hashable, Sendable {
        /// `N`: the watermark's left (or top) edge `N` pixels from the image's.
        case offset(Int)
        /// `-N` (and `-0`): the watermark's left (or top) edge at the image's size minus the
        /// watermark's, minus `N`: `-0` puts it flush with the right (or bottom) edge.
        case fromEnd(Int)
        /// `Np`: `N` percent of the image's side, rounded (thumbor: `round(side * N / 100 +
        /// 0.00001)`), as an offset.
        case percent(Int)
        /// `-Np`: `N` percent of the image's side, rounded, as ``fromEnd(_:)``.
        case percentFromEnd(Int)
        /// `center`: centred, rounded towards zero.
        case center
        /// `repeat`: tiled along the axis, thumbor's spacing (see the renderer).
        case `repeat`
    }

    /// The watermark's source, as written in the filter once the URL is percent-decoded
    /// (without the `'quotes'` thumbor allows around it).
    public var source: String
    /// The horizontal position.
    public var x: Position
    /// The vertical position.
    public var y: Position
    /// Transparency added to the watermark, 0 (as it is) to 100 (invisible): every alpha value
    /// is lowered by `255 * alpha / 100` (integer arithmetic), at least 0.
    public var alpha: Int
    /// `w_ratio`: the most the watermark may be wide, in percent of the image's width, or `nil`
    /// (`none` or 0). With a ratio the watermark is resized to fit the box the ratios give,
    /// keeping its aspect ratio (enlarged when it is smaller).
    public var widthRatio: Int?
    /// `h_ratio`: the same for the height.
    public var heightRatio: Int?

    /// A watermark from its arguments.
    public init(source: String, x: Position, y: Position, alpha: Int, widthRatio: Int? = nil, heightRatio: Int? = nil) {
        self.source = source
        self.x = x
        self.y = y
        self.alpha = alpha
        self.widthRatio = widthRatio
        self.heightRatio = heightRatio
    }
}
