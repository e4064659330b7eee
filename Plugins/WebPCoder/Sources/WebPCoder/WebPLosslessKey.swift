public import WebImageCore

/// The context key that picks lossless or lossy WebP encoding for one request, over the
/// coder's own ``WebPCoder/lossless`` setting (read from ``ImageEncodeOptions/context``).
///
/// ```swift
/// var options = ImageEncodeOptions()
/// options.context.webPLossless = true
/// let data = try WebPCoder().encode(image, as: .webp, options: options)
/// ```
public enum WebPLosslessKey: WebImageContextKey {
    /// `true`: lossless; `false`: lossy.
    public typealias Value = Bool
}
