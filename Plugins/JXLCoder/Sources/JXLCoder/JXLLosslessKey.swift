public import WebImageCore

/// The context key that picks lossless or lossy JPEG XL encoding for one request, over the
/// coder's own ``JXLCoder/lossless`` setting (read from ``/WebImageCore/ImageEncodeOptions/context``).
///
/// ```swift
/// var options = ImageEncodeOptions()
/// options.context.jxlLossless = true
/// let data = try JXLCoder().encode(image, as: .jpegXL, options: options)
/// ```
public enum JXLLosslessKey: WebImageContextKey {
    /// `true`: lossless; `false`: lossy.
    public typealias Value = Bool
    /// It changes the data a cache stores, not the decode: requests that set it equally still
    /// share their load.
    public static let effect = WebImageContextKeyEffect.load
}
