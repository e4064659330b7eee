/// Rewrites a loaded image: resize, crop, round corners, ... (SDWebImage's `SDImageTransformer`).
///
/// The ``transformerKey`` becomes part of the cache key, so the transformed image is cached
/// under its own key: the same parameters must always give the same key, and different
/// parameters different keys.
///
/// Transformers run off the caller's thread, from any thread, concurrently.
///
/// Through ``ImageManager``, the output keeps the input's ``WebImage/format`` and
/// ``WebImage/extendedData`` unless the transformer sets them (a format other than
/// ``ImageFormat/undefined``, extended data not `nil`), and is marked
/// ``ImageMetadata/transformed``: a transformer that draws a fresh image need not copy them.
public protocol ImageTransformer: Sendable {
    /// A stable string that names this transformer and its parameters.
    var transformerKey: String { get }
    /// Transforms `image`, loaded for cache key `key`.
    /// - Throws: ``WebImageError`` with ``WebImageError/Code/transformFailed`` (for example a crop
    ///   outside the image), or ``WebImageError/Code/invalidArgument`` for a parameter out of range.
    func transform(_ image: WebImage, forKey key: String) throws -> WebImage
}

/// A transformer made of a key and a closure.
public struct ClosureImageTransformer: ImageTransformer {
    public let transformerKey: String
    private let body: @Sendable (WebImage, String) throws -> WebImage

    /// A transformer named `key` that calls `body`.
    /// - Parameters:
    ///   - key: The transformer key; must change when what the closure does changes.
    ///   - body: The transformation: image and cache key in, image out.
    public init(key: String, _ body: @escaping @Sendable (WebImage, String) throws -> WebImage) {
        self.transformerKey = key
        self.body = body
    }

    public func transform(_ image: WebImage, forKey key: String) throws -> WebImage {
        try body(image, key)
    }
}

extension ImageTransformer where Self == ClosureImageTransformer {
    /// A transformer from a key and a closure: `.closure(key: "invert") { image, _ in ... }`.
    public static func closure(key: String, _ body: @escaping @Sendable (WebImage, String) throws -> WebImage) -> ClosureImageTransformer {
        ClosureImageTransformer(key: key, body)
    }
}
