/// Rewrites a loaded image: resize, crop, round corners, ... (SDWebImage's `SDImageTransformer`).
///
/// The ``transformerKey`` becomes part of the cache key, so the transformed image is cached
/// under its own key: the same parameters must always give the same key, and different
/// parameters different keys.
///
/// Transformers run off the caller's thread, from any thread, concurrently.
///
/// Through ``ImageManager`` the output is marked ``ImageMetadata/transformed``, and with
/// ``preserveImageMetadata`` (the default) it takes the input's metadata, whatever the
/// transformer set (SDWebImage's "override from the full image"): ``WebImage/format``,
/// ``WebImage/extendedData``, ``WebImage/colorProfile`` and the ``ImageMetadata/incremental``
/// and ``ImageMetadata/decoded`` flags. A transformer that draws a fresh image need not copy them.
/// Without it the output is kept as the transformer made it, but for a ``ImageFormat/undefined``
/// format, `nil` extended data and no colour profile, which still come from the input.
public protocol ImageTransformer: Sendable {
    /// A stable string that names this transformer and its parameters.
    var transformerKey: String { get }
    /// Whether the manager gives the output the input's metadata (default `true`; SDWebImage's
    /// `preserveImageMetadata`).
    var preserveImageMetadata: Bool { get }
    /// Transforms `image`, loaded for cache key `key`.
    /// - Throws: ``WebImageError`` with ``WebImageError/Code/transformFailed`` (for example a crop
    ///   outside the image), or ``WebImageError/Code/invalidArgument`` for a parameter out of range.
    func transform(_ image: WebImage, forKey key: String) throws -> WebImage
}

extension ImageTransformer {
    /// `true`: the output takes the input's format, extended data, colour profile and flags.
    public var preserveImageMetadata: Bool { true }
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
