public import WebImageCore

/// Mirrors an image left-right and/or top-bottom, exactly (SDWebImage's `SDImageFlippingTransformer`).
///
/// With neither flag the pixels are unchanged (the image is still marked transformed).
/// The scale factor, format and metadata are kept, ``/WebImageCore/ImageMetadata/transformed`` is added, and
/// every frame of an animated image is flipped.
///
/// Animated images: every frame is transformed, keeping the frame count, durations and loop
/// count. A lazily decoded animation (``/WebImageCore/WebImage/isLazilyAnimated``) gives a lazily
/// transformed one: frame 0 now, frame `n` when it is read, a bounded number held at once (see
/// ``/WebImageCore/WebImage/mappingFrames(transformerKey:_:)``); an animation whose frames are all
/// held gives one whose transformed frames are all held. Whether to transform animated images
/// at all is the caller's choice (SDWebImage's `transformAnimatedImage` option).
///
/// Memory (decision): ``/WebImageCore/ImageTransformer/transform(_:forKey:)`` borrows its input
/// and the caller keeps it (the manager reads its format and extended data, caches and views
/// may hold it), so the source's pixels are never this transformer's to overwrite: a still
/// image, a held frame and an animation's first frame get one new bitmap each (a copy-on-write
/// copy flipped in place, no zero-filled buffer first), bounded by the decoder's per-frame pixel
/// limit. The later frames of a lazily decoded animation are made for the transform
/// (``/WebImageCore/WebImage/mappingFramesInPlace(transformerKey:_:)``), one at a time as they
/// are read, and flipped where they lie: a frame its provider hands over (the built-in GIF and
/// APNG coders' last frame, and a frame before a keyframe) is flipped with no copy at all.
/// Code that owns a bitmap outright flips it without a second one with
/// ``WebImageCore/Bitmap/flip(horizontal:vertical:)``.
///
/// Key: `FlippingTransformer(horizontal,vertical)` with `1`/`0` flags, as SDWebImage spells it:
/// `FlippingTransformer(1,0)` mirrors left-right.
///
/// Thread-safety: an immutable value; use it from any thread.
public struct FlippingTransformer: ImageTransformer, Hashable {
    /// Whether to mirror left-right.
    public let horizontal: Bool
    /// Whether to mirror top-bottom.
    public let vertical: Bool

    /// A flip left-right, top-bottom, or both.
    /// - Parameters:
    ///   - horizontal: Mirror left-right. Default `false`.
    ///   - vertical: Mirror top-bottom. Default `false`.
    public init(horizontal: Bool = false, vertical: Bool = false) {
        self.horizontal = horizontal
        self.vertical = vertical
    }

    /// `FlippingTransformer(h,v)`.
    public var transformerKey: String {
        TransformerKeyFormat.key("FlippingTransformer", [TransformerKeyFormat.format(horizontal), TransformerKeyFormat.format(vertical)])
    }

    /// Flips every frame of `image`.
    public func transform(_ image: WebImage, forKey key: String) throws -> WebImage {
        try image.mappingFramesInPlace(transformerKey: transformerKey) { bitmap in
            guard horizontal || vertical else { return }
            try BitmapOperations.flip(&bitmap, horizontal: horizontal, vertical: vertical)
        }
    }
}

extension ImageTransformer where Self == FlippingTransformer {
    /// A ``FlippingTransformer``: `.flip(horizontal: true)`.
    /// - Parameters:
    ///   - horizontal: Mirror left-right. Default `false`.
    ///   - vertical: Mirror top-bottom. Default `false`.
    public static func flip(horizontal: Bool = false, vertical: Bool = false) -> FlippingTransformer {
        FlippingTransformer(horizontal: horizontal, vertical: vertical)
    }
}
