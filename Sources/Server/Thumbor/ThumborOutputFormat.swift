/// The output format a thumbor URL asks for with `format(...)`.
public enum ThumborOutputFormat: String, Hashable, Sendable {
    /// JPEG.
    case jpeg
    /// PNG.
    case png
    /// WebP (needs the WebP coder registered).
    case webp
    /// AVIF (needs the AVIF coder registered).
    case avif
    /// GIF.
    case gif
    /// Negotiated from the request's `Accept`: AVIF, then WebP, then the source's format.
    case auto
}
