/// What the coders do with a colour profile a file carries (an ICC profile, or a colour space
/// stated by code points such as AVIF's and HEIF's `nclx`).
///
/// Set it for one request with ``WebImageContext/imageColorProfileHandling``, or in
/// ``ImageDecodeOptions/colorProfileHandling``. The two choices never share a cache entry: a
/// request that keeps profiles has a `ColorProfile(keep)` part in its cache key (see
/// ``ImageManager/cacheKey(forBaseKey:keepsColorProfile:thumbnailPixelSize:preserveAspectRatio:scaleDownLimitBytes:transformerKey:)``).
public enum ColorProfileHandling: Sendable, Hashable, CaseIterable {
    /// Convert the pixels to sRGB at decode (the default, as libvips' `thumbnail`, imgproxy and
    /// ImageIO do): the image is sRGB and carries no profile, so transformers, encoders and
    /// caches need not care. Untagged and sRGB images are not touched.
    case convertToSRGB
    /// Keep the numbers as the file has them and carry the profile in
    /// ``WebImage/colorProfile``; the encoders embed it again (what thumbor does). Only RGB
    /// profiles are kept: CMYK and grey images are still converted to sRGB, since the decoded
    /// pixels are RGBA, and so are GIF palettes.
    case keep
}
