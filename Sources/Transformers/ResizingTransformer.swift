public import WebImageCore

/// Resizes an image to an exact pixel size (SDWebImage's `SDImageResizingTransformer`).
///
/// The output is always exactly ``size``; ``mode`` says how the image fills it:
/// - ``ScaleMode/fill``: stretched to the size, the aspect ratio is not kept;
/// - ``ScaleMode/aspectFit``: scaled to fit inside the size, aspect ratio kept, centered; the
///   uncovered bands are transparent (the output then has alpha);
/// - ``ScaleMode/aspectFill``: scaled to cover the size, aspect ratio kept, centered; the overflow
///   is cropped. The crop is taken in whole source pixels before resampling, so the aspect ratio
///   may be off by less than one source pixel.
///
/// Resampling premultiplies alpha (no dark fringes at transparent edges) with ``filter``
/// (default ``/WebImageCore/ResamplingFilter/lanczos3``; see ``/WebImageCore/Bitmap/resampled(to:filter:)``).
/// The scale factor, format and metadata are kept, ``/WebImageCore/ImageMetadata/transformed`` is added, and
/// every frame of an animated image is resized (durations and loop count kept).
///
/// Animated images: every frame is transformed, keeping the frame count, durations and loop
/// count. A lazily decoded animation (``/WebImageCore/WebImage/isLazilyAnimated``) gives a lazily
/// transformed one: frame 0 now, frame `n` when it is read, a bounded number held at once (see
/// ``/WebImageCore/WebImage/mappingFrames(transformerKey:_:)``); an animation whose frames are all
/// held gives one whose transformed frames are all held. Whether to transform animated images
/// at all is the caller's choice (SDWebImage's `transformAnimatedImage` option).
///
/// Key: `ResizingTransformer(WxH,mode,filter)`, for example
/// `ResizingTransformer(400x300,aspectFill,lanczos3)`.
///
/// Thread-safety: an immutable value; use it from any thread.
public struct ResizingTransformer: ImageTransformer, Hashable {
    /// How the image fills the output size.
    public enum ScaleMode: String, Sendable, CaseIterable {
        /// Stretch to the size (aspect ratio not kept).
        case fill
        /// Fit inside the size, aspect ratio kept, transparent bands.
        case aspectFit
        /// Cover the size, aspect ratio kept, overflow cropped.
        case aspectFill
    }

    /// The exact output size in pixels.
    public let size: PixelSize
    /// How the image fills ``size``.
    public let mode: ScaleMode
    /// The resampling filter.
    public let filter: ResamplingFilter

    /// A resize to exactly `size` pixels.
    /// - Parameters:
    ///   - size: The exact output size in pixels; both sides must be at least 1 (checked when
    ///     transforming).
    ///   - mode: How the image fills the size. Default ``ScaleMode/fill``.
    ///   - filter: The resampling filter. Default ``/WebImageCore/ResamplingFilter/lanczos3``.
    public init(size: PixelSize, mode: ScaleMode = .fill, filter: ResamplingFilter = .lanczos3) {
        self.size = size
        self.mode = mode
        self.filter = filter
    }

    /// `ResizingTransformer(WxH,mode,filter)`.
    public var transformerKey: String {
        TransformerKeyFormat.key("ResizingTransformer", [TransformerKeyFormat.format(size), mode.rawValue, filter.rawValue])
    }

    /// Resizes every frame of `image`.
    /// - Throws: ``/WebImageCore/WebImageError/Code/invalidArgument`` if ``size`` is empty or over
    ///   ``/WebImageCore/Bitmap/maximumResampledPixelCount`` pixels, or the image is empty.
    public func transform(_ image: WebImage, forKey key: String) throws -> WebImage {
        guard !size.isEmpty else {
            throw WebImageError(.invalidArgument, "\(transformerKey): the target size \(size) is empty (image \(image.pixelSize), key \(key))")
        }
        try WebImage.checkOutputSize(size, transformerKey: transformerKey)
        return try image.mappingFrames(transformerKey: transformerKey) { try resize($0) }
    }

    /// Resizes one bitmap.
    func resize(_ bitmap: Bitmap) throws -> Bitmap {
        guard bitmap.width > 0, bitmap.height > 0 else {
            throw WebImageError(.invalidArgument, "\(transformerKey): cannot resize an empty \(bitmap.size) image")
        }
        let w = Double(bitmap.width)
        let h = Double(bitmap.height)
        let tw = Double(size.width)
        let th = Double(size.height)
        switch mode {
        case .fill:
            return try bitmap.resampled(to: size, filter: filter)
        case .aspectFill:
            let scale = max(tw / w, th / h)
            // The source region that, scaled, covers the target: whole pixels, centered.
            let cropWidth = min(bitmap.width, max(1, Int((tw / scale).rounded())))
            let cropHeight = min(bitmap.height, max(1, Int((th / scale).rounded())))
            let cropped = try BitmapOperations.crop(
                bitmap, x: (bitmap.width - cropWidth) / 2, y: (bitmap.height - cropHeight) / 2,
                width: cropWidth, height: cropHeight)
            return try cropped.resampled(to: size, filter: filter)
        case .aspectFit:
            let scale = min(tw / w, th / h)
            let fitted = PixelSize(
                width: min(size.width, max(1, Int((w * scale).rounded()))),
                height: min(size.height, max(1, Int((h * scale).rounded()))))
            let scaled = try bitmap.resampled(to: fitted, filter: filter)
            guard fitted != size else { return scaled }
            var canvas = try Bitmap(width: size.width, height: size.height, fill: .clear, hasAlpha: true)
            BitmapOperations.copy(scaled, into: &canvas, x: (size.width - fitted.width) / 2, y: (size.height - fitted.height) / 2)
            return canvas
        }
    }
}

extension ImageTransformer where Self == ResizingTransformer {
    /// A ``ResizingTransformer``: `.resize(to: PixelSize(width: 400, height: 300), mode: .aspectFill)`.
    /// - Parameters:
    ///   - size: The exact output size in pixels.
    ///   - mode: How the image fills the size. Default ``ResizingTransformer/ScaleMode/fill``.
    ///   - filter: The resampling filter. Default ``/WebImageCore/ResamplingFilter/lanczos3``.
    public static func resize(to size: PixelSize, mode: ResizingTransformer.ScaleMode = .fill, filter: ResamplingFilter = .lanczos3) -> ResizingTransformer {
        ResizingTransformer(size: size, mode: mode, filter: filter)
    }
}
