public import WebImageCore

/// Crops an image to a rectangle in pixels (SDWebImage's `SDImageCroppingTransformer`).
///
/// What happens to a rectangle that reaches outside the image is the ``Bounds`` policy:
/// ``Bounds/clamp`` (the default, as `CGImageCreateWithImageInRect` does) keeps the part of the
/// rectangle inside the image; ``Bounds/strict`` rejects any rectangle not entirely inside.
/// Either way a rectangle that does not overlap the image at all is an error.
/// The pixels are copied exactly. The scale factor, format and metadata are kept,
/// ``/WebImageCore/ImageMetadata/transformed`` is added, and every frame of an animated image is cropped.
///
/// Animated images: every frame is transformed, keeping the frame count, durations and loop
/// count. A lazily decoded animation (``/WebImageCore/WebImage/isLazilyAnimated``) gives a lazily
/// transformed one: frame 0 now, frame `n` when it is read, a bounded number held at once (see
/// ``/WebImageCore/WebImage/mappingFrames(transformerKey:_:)``); an animation whose frames are all
/// held gives one whose transformed frames are all held. Whether to transform animated images
/// at all is the caller's choice (SDWebImage's `transformAnimatedImage` option).
///
/// Key: `CroppingTransformer(x,y,WxH,bounds)`, for example `CroppingTransformer(10,20,100x50,clamp)`.
///
/// Thread-safety: an immutable value; use it from any thread.
public struct CroppingTransformer: ImageTransformer, Hashable {
    /// What to do with a rectangle that reaches outside the image.
    public enum Bounds: String, Sendable, CaseIterable {
        /// Keep the part of the rectangle inside the image.
        case clamp
        /// Throw unless the rectangle lies entirely inside the image.
        case strict
    }

    /// The rectangle to keep, in pixels.
    public let rect: PixelRect
    /// What to do with a rectangle that reaches outside the image.
    public let bounds: Bounds

    /// A crop to `rect`.
    /// - Parameters:
    ///   - rect: The rectangle to keep, in pixels; must not be empty (checked when transforming).
    ///   - bounds: Default ``Bounds/clamp``.
    public init(rect: PixelRect, bounds: Bounds = .clamp) {
        self.rect = rect
        self.bounds = bounds
    }

    /// `CroppingTransformer(x,y,WxH,bounds)`.
    public var transformerKey: String {
        TransformerKeyFormat.key("CroppingTransformer", ["\(rect.x)", "\(rect.y)", TransformerKeyFormat.format(rect.size), bounds.rawValue])
    }

    /// Crops every frame of `image`.
    /// - Throws: ``/WebImageCore/WebImageError/Code/invalidArgument`` for an empty rectangle;
    ///   ``/WebImageCore/WebImageError/Code/transformFailed`` when the rectangle misses the image, or (with
    ///   ``Bounds/strict``) is not entirely inside it.
    public func transform(_ image: WebImage, forKey key: String) throws -> WebImage {
        let region = try cropRegion(for: image.pixelSize, key: key)
        return try image.mappingFrames(transformerKey: transformerKey) { bitmap in
            try BitmapOperations.crop(bitmap, x: region.x, y: region.y, width: region.width, height: region.height)
        }
    }

    /// The region of an image of `size` that this transformer keeps.
    func cropRegion(for size: PixelSize, key: String) throws -> PixelRect {
        guard !rect.isEmpty else {
            throw WebImageError(.invalidArgument, "\(transformerKey): the crop rectangle \(rect) is empty (key \(key))")
        }
        let imageRect = PixelRect(x: 0, y: 0, size: size)
        guard let region = imageRect.intersection(rect) else {
            throw WebImageError(.transformFailed, "\(transformerKey): the crop rectangle \(rect) is outside the \(size) image (key \(key))")
        }
        if bounds == .strict, region != rect {
            throw WebImageError(.transformFailed, "\(transformerKey): the crop rectangle \(rect) is not entirely inside the \(size) image (key \(key))")
        }
        return region
    }
}

extension ImageTransformer where Self == CroppingTransformer {
    /// A ``CroppingTransformer``: `.crop(to: PixelRect(x: 0, y: 0, width: 100, height: 100))`.
    /// - Parameters:
    ///   - rect: The rectangle to keep, in pixels.
    ///   - bounds: What to do with a rectangle that reaches outside the image. Default ``CroppingTransformer/Bounds/clamp``.
    public static func crop(to rect: PixelRect, bounds: CroppingTransformer.Bounds = .clamp) -> CroppingTransformer {
        CroppingTransformer(rect: rect, bounds: bounds)
    }
}
