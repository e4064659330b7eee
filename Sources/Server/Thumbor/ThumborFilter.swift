public import WebImageCore

/// One filter of a thumbor URL's `filters:` part (`filters:format(webp):quality(80)`), with
/// thumbor 7.8's argument syntax and meaning (`thumbor/filters/*.py`).
///
/// thumbor runs the filters in three phases: `stretch()` before loading, `no_upscale()` right
/// after loading (before any crop), and all the others after the crop and resize, in the
/// URL's order. ``ThumborRequest/plan(sourceSize:)`` already accounts for the filters that change
/// the geometry (`stretch`, `no_upscale`, `upscale`, `fill`'s canvas, `rotate`'s turn of the
/// canvas); the others act on pixels or on the encoder.
///
/// `focal(AxB:CxD)` is not a case: the parser puts its regions in
/// ``ThumborRequest/focalRegions``, which the plan's crop centres on.
///
/// `extract_focal()` acts before the source is loaded: the parser has already applied it
/// (``ThumborRequest/source`` is the inner image, its crop one of the
/// ``ThumborRequest/focalRegions``). `watermark(...)` and `frame(...)` name images the server
/// loads like the source (``ThumborRequest/filterSources``); `autojpg()` acts on the output
/// format.
///
/// Names thumbor does not know, and thumbor filters this server does not implement
/// (`redeye`, which needs an eye detector), are skipped, as thumbor skips names it does not
/// know (``ThumborRequest/ignoredFilters`` lists them). `blur`, `sharpen`, `equalize`, `noise`,
/// `rgb`, `colorize`, `convolution` and `curve` whose arguments thumbor's syntax does not accept
/// are skipped and listed there too, as thumbor skips them; arguments thumbor accepts but then
/// fails on (a 500 from thumbor: a number too large for C's `int`, a colour that is not 6 hex
/// digits, a kernel of even size) are refused with `400`.
public enum ThumborFilter: Hashable, Sendable {
    /// `format(jpeg|jpg|png|webp|avif|gif|auto)`: the output format (`jpg` is `jpeg`; quotes
    /// around the name are allowed; `auto` negotiates from `Accept`). thumbor's own default,
    /// with no `format`, is the source's format.
    case format(ThumborOutputFormat)
    /// `quality(N)`, 0 to 100: the encoder quality. Without it thumbor uses its `QUALITY`
    /// setting, 80 by default, for JPEG, WebP and AVIF alike.
    case quality(Int)
    /// `blur(radius[,sigma])`: thumbor's Gaussian blur, a kernel of `2 * radius + 1` taps
    /// (the Gaussian cut at the radius, normalised) run across, then down, each pass rounded
    /// to 8 bits, every channel alpha included. The radius is at least 1 and capped at 150
    /// (thumbor's `MAX_RADIUS`); the sigma is the one given (its sign ignored), or the radius
    /// as written when it is absent or 0 (so `blur(300)` is radius 150, sigma 300).
    case blur(radius: Int, sigma: Double?)
    /// `grayscale()`.
    case grayscale
    /// `rotate(degrees)`: a quarter turn count, normalised to 0, 90, 180 or 270 degrees, turned
    /// **counter-clockwise** (thumbor's PIL engine transposes with `ROTATE_90`, which is
    /// counter-clockwise). It turns whatever the image is at its place among the filters
    /// (after the resize, so a 90 turn of a 300x200 result gives 200x300).
    case rotate(Int)
    /// `round_corner(a|b,r,g,b[,transparent])`: corner radii (horizontal `a`, vertical `b`, one
    /// number for both), the colour painted outside the corners, and whether the outside is
    /// made transparent instead.
    case roundCorner(horizontalRadius: Int, verticalRadius: Int, color: RGBAColor, transparent: Bool)
    /// `fill(color[,transparent])`: the image centred on a canvas of ``ThumborPlan/canvas``
    /// (at ``ThumborPlan/placement(of:)``) filled with `color`, as written in the URL; read it
    /// with ``ThumborColor/init(_:)`` (a colour name, hex digits without `#`, `transparent`,
    /// `auto` for the image's mean colour, or `blur`; the parser accepts nothing else). With
    /// `transparent` true, the image's transparent pixels are blended onto the fill; false
    /// (the default), the image's pixels replace the canvas's, alpha included.
    case fill(String, transparent: Bool = false)
    /// `background_color(color)`: the image blended onto a canvas of its own size filled with
    /// `color` (read it with ``ThumborColor/init(_:)``; never `blur`), so transparent pixels
    /// take the colour.
    case backgroundColor(String)
    /// `no_upscale()`: the requested width and height are capped at the source's before
    /// anything else (so a normal resize never enlarges).
    case noUpscale
    /// `upscale()`: lets a `fit-in` result grow to the box when the source is smaller.
    case upscale
    /// `stretch()`: resize to exactly the requested width and height without cropping to
    /// their aspect ratio first.
    case stretch
    /// `max_bytes(N)`, N at least 1: for JPEG and WebP output only, when the encoded image is
    /// larger than N bytes, encode again with the quality times 0.75 (truncated) until it fits;
    /// when the quality would fall below 10, thumbor keeps the first encoding. `max_bytes(0)` is
    /// no limit and is dropped by the parser.
    case maxBytes(Int)
    /// `max_age(N)`: the response's `Cache-Control` max-age in seconds instead of the server's
    /// (thumbor sends `max-age=N,public`, and no `Cache-Control` at all for 0).
    case maxAge(Int)
    /// `brightness(N)`, -100 to 100: `255 * N / 100` (truncated) added to each colour channel,
    /// clamped to 0...255.
    case brightness(Int)
    /// `contrast(N)`, -100 to 100: each channel `c` becomes `k * (c - 128) / 100 + 128` with
    /// `k = (N + 100)^2 / 100` (integer arithmetic), clamped.
    case contrast(Int)
    /// `saturation(N)`: a factor (1 keeps, 0 greys, 2 doubles): each channel `c` becomes
    /// `p + (c - p) * N` with `p = sqrt(0.299 r^2 + 0.587 g^2 + 0.114 b^2)`, clamped.
    case saturation(Double)
    /// `strip_exif()`: no EXIF in the output.
    case stripExif
    /// `strip_icc()`: no ICC profile in the output.
    case stripICC
    /// `sharpen(amount,radius,luminance_only)`: thumbor's wavelet sharpen (five levels of an
    /// à trous wavelet, the detail of level `l` multiplied by
    /// `1 + amount * exp(-(l - radius)^2 / 1.5)`), on red, green and blue, or with
    /// `luminance_only` on the luma of their YCbCr only. Alpha is kept.
    case sharpen(amount: Double, radius: Double, luminanceOnly: Bool)
    /// `equalize()`: thumbor's histogram equalisation of red, green and blue, each on its own
    /// histogram. Alpha is kept.
    case equalize
    /// `noise(amount[,seed])`: each pixel's red, green and blue moved by one random number in
    /// `-amount/2 ..< amount - amount/2` (glibc's `random()`, as thumbor). With a seed (1 or
    /// more) the numbers are thumbor's own for that seed; without one (or 0) thumbor's are not
    /// repeatable, so this server seeds them from the request's URL: one URL, one result.
    /// Alpha is kept.
    case noise(amount: Int, seed: Int?)
    /// `rgb(r,g,b)`, percentages: `255 * p / 100` (truncated) added to each of red, green and
    /// blue, clamped.
    case rgb(red: Int, green: Int, blue: Int)
    /// `colorize(r,g,b,fill)`: each of red, green and blue blended towards the fill colour (6
    /// hex digits) by its percentage: `(c * (100 - p) + fill * p) / 100`, truncated, clamped.
    case colorize(red: Int, green: Int, blue: Int, fill: RGBAColor)
    /// `convolution(items,columns[,normalize])`: the kernel of `items` (`;`-separated numbers,
    /// row by row, `columns` to a row; an odd number of rows and of columns) over every pixel,
    /// edges repeated, each channel (alpha too) truncated to 0...255. With `normalize` (the
    /// default) the kernel is divided by its sum when the sum is not 0.
    case convolution(kernel: [Double], columns: Int, normalize: Bool)
    /// `curve(all,red,green,blue)`: four tone curves, each `[(x,y),...]`: the channel's own
    /// curve, then the `all` curve, applied to red, green and blue through thumbor's natural
    /// cubic spline through the points.
    case curve(all: [CurvePoint], red: [CurvePoint], green: [CurvePoint], blue: [CurvePoint])
    /// `watermark(url,x,y,alpha[,w_ratio,h_ratio])`: another image, loaded like the source,
    /// composited over the image at its place among the filters (see ``ThumborWatermark``).
    case watermark(ThumborWatermark)
    /// `frame(url)`: the image framed by a nine-patch image (an Android `.9.png`: black pixels
    /// in the top row and left column mark the parts that stretch, in the bottom row and right
    /// column the content area), loaded like the source. The image is first padded with white
    /// by the nine-patch's padding, then the nine-patch is stretched over it and composited.
    /// The argument is the source as written, percent-decoded, without `'quotes'`.
    case frame(String)
    /// `proportion(p)`, 0 < p <= 1: the image, at this place among the filters, resized to `p`
    /// times its width and height (each truncated); nothing when a side would be under 1 pixel.
    case proportion(Double)
    /// `extract_focal()`: the source is itself a thumbor URL (`host/unsafe/AxB:CxD/.../image`);
    /// its image is loaded instead, and its crop is a focal region. Applied by the parser.
    case extractFocal
    /// `autojpg([true|false])`: with `true` (the default), a PNG source whose result has no
    /// transparent pixel is answered as JPEG, unless the URL names a format or `Accept`
    /// negotiates AVIF or WebP (thumbor's `auto_png_to_jpg`).
    case autoJPG(Bool)
}
