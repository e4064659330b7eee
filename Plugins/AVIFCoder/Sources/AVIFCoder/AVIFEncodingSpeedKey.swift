public import WebImageCore

/// The context key that picks libavif's encoding speed for one request, over the coder's own
/// ``AVIFCoder/speed`` setting (read from ``/WebImageCore/ImageEncodeOptions/context``):
/// 0 (slowest, smallest files) ... 10 (fastest).
///
/// ```swift
/// var options = ImageEncodeOptions(compressionQuality: 0.7)
/// options.context.avifEncodingSpeed = 10
/// let data = try AVIFCoder().encode(image, as: .avif, options: options)
/// ```
public enum AVIFEncodingSpeedKey: WebImageContextKey {
    /// 0...10 (clamped).
    public typealias Value = Int
    /// It changes the data a cache stores, not the decode: requests that set it equally still
    /// share their load.
    public static let effect = WebImageContextKeyEffect.load
}
