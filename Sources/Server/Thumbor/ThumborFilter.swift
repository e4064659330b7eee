public import WebImageCore

/// One filter of a thumbor URL's `filters:` part (`filters:format(webp):quality(80)`).
public enum ThumborFilter: Hashable, Sendable {
    /// `format(jpeg|png|webp|avif|gif|auto)`.
    case format(ThumborOutputFormat)
    /// `quality(N)`, 0 to 100.
    case quality(Int)
    /// `blur(radius[,sigma])`.
    case blur(radius: Int, sigma: Double?)
    /// `grayscale()`.
    case grayscale
    /// `rotate(degrees)`: a multiple of 90, turned counter-clockwise as thumbor does.
    case rotate(Int)
    /// `round_corner(a|b,r,g,b[,transparent])`: corner radii and the colour outside them.
    case roundCorner(horizontalRadius: Int, verticalRadius: Int, color: RGBAColor, transparent: Bool)
    /// `fill(color)`: a colour name, hex, `transparent`, `auto` or `blur`.
    case fill(String)
    /// `no_upscale()`.
    case noUpscale
    /// `upscale()`: lets `fit-in` enlarge.
    case upscale
    /// `max_bytes(N)`: lower the quality until the output is at most N bytes.
    case maxBytes(Int)
    /// `brightness(N)`, -100 to 100.
    case brightness(Int)
    /// `contrast(N)`, -100 to 100.
    case contrast(Int)
    /// `saturation(N)`: a factor (1 keeps, 0 greys, 2 doubles).
    case saturation(Double)
    /// `strip_exif()`.
    case stripExif
    /// `strip_icc()`.
    case stripICC
}
