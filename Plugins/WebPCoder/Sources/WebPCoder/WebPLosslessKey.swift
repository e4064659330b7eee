public import WebImageCore

/// The context key that picks lossless or lossy WebP encoding for one request, over the
/// coder's own ``WebPCoder/lossless`` setting (read from ``/WebImageCore/ImageEncodeOptions/context``).
///
/// ```swift
/// var options = ImageEncodeOptions()
/// options.context.webPLossless = true
/// let data = try WebPCoder().encode(image, as: .webp, options: options)
/// ```
public enum WebPLosslessKey: WebImageContextKey {
    /// `true`: lossless; `false`: lossy.
    public typealias Value = Bool
    /// It changes the data a cache stores, not the decode: requests that set it equally still
    /// share their load.
    public static let effect = WebImageContextKeyEffect.load
}
