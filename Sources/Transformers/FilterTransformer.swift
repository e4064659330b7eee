public import WebImageCore

/// Applies a custom pixel filter, a closure from ``/WebImageCore/Bitmap`` to `Bitmap`, to every
/// frame of an image, under a key of your choosing (SDWebImage's `SDImageFilterTransformer`
/// with a custom filter).
///
/// Where Core's ``/WebImageCore/ClosureImageTransformer`` rewrites the whole ``/WebImageCore/WebImage``
/// (and is the tool when the size, frames or metadata must change in other ways), a
/// `FilterTransformer` only supplies the per-frame pixel work and inherits what every built-in
/// transformer does: the scale factor, format and metadata are kept, ``/WebImageCore/ImageMetadata/transformed``
/// is added, every frame of an animation is filtered with durations and loop count kept, and an
/// error the closure throws that is not a ``/WebImageCore/WebImageError`` is wrapped in
/// ``/WebImageCore/WebImageError/Code/transformFailed``. The frames the closure returns must all have the
/// same size.
///
/// Animated images: every frame is transformed, keeping the frame count, durations and loop
/// count. A lazily decoded animation (``/WebImageCore/WebImage/isLazilyAnimated``) gives a lazily
/// transformed one: frame 0 now, frame `n` when it is read, a bounded number held at once (see
/// ``/WebImageCore/WebImage/mappingFrames(transformerKey:_:)``); an animation whose frames are all
/// held gives one whose transformed frames are all held. Whether to transform animated images
/// at all is the caller's choice (SDWebImage's `transformAnimatedImage` option).
///
/// Key: `FilterTransformer(name)`, where `name` is yours; it must change whenever what the
/// closure does changes (it becomes part of the cache key). Avoid `-` followed by a transformer
/// name in it, which would read like a pipeline join.
///
/// Thread-safety: the closure is `@Sendable` and may run on any thread, concurrently.
public struct FilterTransformer: ImageTransformer {
    /// The name that identifies what the closure does.
    public let name: String
    private let body: @Sendable (Bitmap) throws -> Bitmap

    /// A filter named `name` that applies `body` to every frame's bitmap.
    /// - Parameters:
    ///   - name: Identifies what `body` does; part of the key.
    ///   - body: The pixel filter, called once per frame.
    public init(name: String, _ body: @escaping @Sendable (Bitmap) throws -> Bitmap) {
        self.name = name
        self.body = body
    }

    /// `FilterTransformer(name)`.
    public var transformerKey: String {
        TransformerKeyFormat.key("FilterTransformer", [name])
    }

    /// Filters every frame of `image`.
    /// - Throws: What the closure throws (wrapped in ``/WebImageCore/WebImageError/Code/transformFailed``
    ///   unless it is a ``/WebImageCore/WebImageError``); ``/WebImageCore/WebImageError/Code/transformFailed``
    ///   if the filtered frames differ in size.
    public func transform(_ image: WebImage, forKey key: String) throws -> WebImage {
        try image.mappingFrames(transformerKey: transformerKey, body)
    }
}

extension ImageTransformer where Self == FilterTransformer {
    /// A ``FilterTransformer``: `.filter(name: "posterize") { bitmap in ... }`.
    /// - Parameters:
    ///   - name: Identifies what `body` does; part of the key.
    ///   - body: The pixel filter, called once per frame.
    public static func filter(name: String, _ body: @escaping @Sendable (Bitmap) throws -> Bitmap) -> FilterTransformer {
        FilterTransformer(name: name, body)
    }
}
