public import WebImageCore

/// The context key that picks progressive or baseline JPEG encoding for one request, over the
/// coder's own ``JPEGCoder/progressiveEncoding`` setting (read from
/// ``/WebImageCore/ImageEncodeOptions/context``).
///
/// ```swift
/// var options = ImageEncodeOptions(compressionQuality: 0.8)
/// options.context.jpegProgressive = true
/// let data = try JPEGCoder().encode(image, as: .jpeg, options: options)
/// ```
public enum JPEGProgressiveKey: WebImageContextKey {
    /// `true`: progressive; `false`: baseline.
    public typealias Value = Bool
    /// It changes the data a cache stores, not the decode: requests that set it equally still
    /// share their load.
    public static let effect = WebImageContextKeyEffect.load
}
