/// How a coder decodes (SDWebImage's `SDImageCoderOptions` for decoding).
public struct ImageDecodeOptions: Sendable {
    /// The default pixel limit of one source frame: 50 megapixels (200 MB of RGBA8), imgproxy's
    /// figure. A 48 MP phone photo passes; 16000x16000 is refused from the header, before any
    /// allocation. Coders check it against the header before they allocate pixels.
    public static let defaultMaxPixelCount = 50_000_000
    /// The default budget for a whole image: 100 megapixels of source across all frames
    /// (frames x the source canvas's width x height), two frames at the per-frame limit. It
    /// counts source pixels, not decoded ones, because GIF and APNG must decompress every
    /// frame's full data even for a thumbnail: the time a decode takes grows with the source
    /// pixels, so a thumbnail does not escape the budget.
    public static let defaultMaxTotalPixelCount = 100_000_000
    /// The default frame limit: 10,000 frames (over 16 minutes at 10 fps, far more than real
    /// animations have, while a file of millions of tiny frames is refused).
    public static let defaultMaxFrameCount = 10_000

    /// The scale factor given to the image (>= 1; default 1).
    public var scaleFactor: Double = 1
    /// Decode a thumbnail no larger than this (`nil` or zero: full size). Also for animations:
    /// the built-in GIF and APNG coders composite every frame at the thumbnail's size (each
    /// frame area-averaged as it is decoded), so memory does not grow with the source canvas.
    public var thumbnailPixelSize: PixelSize?
    /// For this package's server (shrink-on-load, issue 36): the thumbnail is the source with
    /// every `factor` x `factor` block averaged into one pixel (alpha-weighted means, `ceil(side
    /// / factor)` per side) and nothing more: no resample to ``thumbnailPixelSize`` follows, so
    /// the server resizes the reduced copy once, as it would the whole image. Read by the PNG
    /// coder's streaming reducer when ``thumbnailPixelSize`` is exactly that reduced size;
    /// other coders ignore it. `nil` (the default): a thumbnail is made as usual.
    package var thumbnailBoxFactor: Int?
    /// Whether a thumbnail keeps the aspect ratio (default `true`); if `false` it is exactly
    /// ``thumbnailPixelSize``.
    public var preserveAspectRatio = true
    /// Decode only the first frame of an animation.
    public var firstFrameOnly = false
    /// A byte budget for the decoded image: larger images are decoded smaller so that every
    /// frame fits `sqrt(limit / frames / 4)` per side, keeping the aspect ratio, at least 1x1
    /// (SDWebImage's `scaleDownLimitBytes`). `nil`: no limit.
    public var scaleDownLimitBytes: Int?
    /// A hint from the URL or file name (`"png"`), for coders that cannot sniff.
    public var fileExtensionHint: String?
    /// Apply the EXIF orientation to the pixels (default `true`); `false` keeps the raw pixels.
    public var applyOrientation = true
    /// Refuse images with more pixels than this in one source frame (header-checked, before any
    /// allocation; default ``defaultMaxPixelCount``, 50 megapixels). Applies to the source size,
    /// whatever size the image is decoded at.
    public var maxPixelCount = ImageDecodeOptions.defaultMaxPixelCount
    /// Refuse images whose frames together have more source pixels than this: frames x the
    /// source canvas's width x height (default ``defaultMaxTotalPixelCount``, 100 megapixels).
    /// A thumbnail or scale-down decode counts the source too, since every frame's data is still
    /// decompressed in full. Checked from the headers before any frame is decoded;
    /// ``WebImageError/Code/imageTooLarge`` if over.
    public var maxTotalPixelCount = ImageDecodeOptions.defaultMaxTotalPixelCount
    /// Refuse animations of more frames than this (checked from the headers before any frame is
    /// decoded; not with ``firstFrameOnly``); ``WebImageError/Code/imageTooLarge`` if over.
    public var maxFrameCount = ImageDecodeOptions.defaultMaxFrameCount
    /// Decode every frame up front instead of lazily (the `preloadAllFrames` option).
    public var preloadAllFrames = false
    /// What to do with a colour profile the file carries: convert to sRGB (the default) or
    /// keep it in ``WebImage/colorProfile``.
    public var colorProfileHandling = ColorProfileHandling.convertToSRGB
    /// The request's context, for coders that read keys of their own.
    public var context = WebImageContext()

    /// Default options: no thumbnail, no scale-down budget, the default pixel and frame limits.
    public init() {}

    /// The options for one request: decode options from its context (the `imageDecodeOptions`
    /// key first, then the individual keys laid over them), the request's flags, and the scale
    /// factor from the cache key (`@2x.` gives 2, `@3x.` gives 3) unless the context sets one.
    ///
    /// Precedence: individual context keys > `imageDecodeOptions` > derived from the key > defaults.
    public init(options: WebImageOptions, context: WebImageContext, cacheKey: String? = nil) {
        self = context.imageDecodeOptions ?? ImageDecodeOptions()
        self.context = context
        scaleFactor = max(1, scaleFactor)
        if let scale = context.imageScaleFactor {
            scaleFactor = max(1, scale)
        } else if context.imageDecodeOptions == nil, let key = cacheKey ?? context.imageCacheKey {
            scaleFactor = Self.scaleFactor(fromKey: key)
        }
        if let size = context.imageThumbnailPixelSize { thumbnailPixelSize = size }
        if let preserve = context.imagePreserveAspectRatio { preserveAspectRatio = preserve }
        if let pixels = context.imageMaxPixelCount { maxPixelCount = pixels }
        if let total = context.imageMaxTotalPixelCount { maxTotalPixelCount = total }
        if let frames = context.imageMaxFrameCount { maxFrameCount = frames }
        if let handling = context.imageColorProfileHandling { colorProfileHandling = handling }
        if options.contains(.decodeFirstFrameOnly) { firstFrameOnly = true }
        if options.contains(.preloadAllFrames) { preloadAllFrames = true }
        if options.contains(.scaleDownLargeImages) {
            scaleDownLimitBytes = context.imageScaleDownLimitBytes ?? scaleDownLimitBytes ?? Self.defaultScaleDownLimitBytes
        }
    }

    /// The byte budget used with `scaleDownLargeImages` when the context sets none: 60 MB, as
    /// SDWebImage on iOS.
    public static let defaultScaleDownLimitBytes = 60 * 1024 * 1024

    /// The scale factor a key or file name implies: `"@2x."` gives 2, `"@3x."` gives 3, else 1.
    /// In a cache key with variant parts (`photo@2x|Thumbnail(64x64,1)|.png`, see
    /// ``ImageManager/cacheKey(for:options:context:)``) `"@2x|"` counts too, so that a thumbnail
    /// read back from the cache has the scale of the image it was made from.
    public static func scaleFactor(fromKey key: String) -> Double {
        for scale in [3, 2] where key.contains("@\(scale)x.") || key.contains("@\(scale)x|") { return Double(scale) }
        return 1
    }

    /// The size to decode at for a source of `pixelSize` under ``thumbnailPixelSize`` and
    /// ``scaleDownLimitBytes``, for `frameCount` frames. Returns `pixelSize` when no option
    /// asks for smaller; never returns larger than the source, never less than 1x1.
    public func targetPixelSize(for pixelSize: PixelSize, frameCount: Int = 1) -> PixelSize {
        guard !pixelSize.isEmpty else { return pixelSize }
        var target = pixelSize
        if let thumbnail = thumbnailPixelSize, !thumbnail.isEmpty,
           thumbnail.width < pixelSize.width || thumbnail.height < pixelSize.height {
            if preserveAspectRatio {
                // The constraining side is exactly the thumbnail's; only the other is computed
                // (rounded to nearest), so float error never loses a pixel.
                let widthRatio = Double(thumbnail.width) / Double(pixelSize.width)
                let heightRatio = Double(thumbnail.height) / Double(pixelSize.height)
                if widthRatio <= heightRatio {
                    let height = Int((Double(pixelSize.height) * widthRatio).rounded())
                    target = PixelSize(width: thumbnail.width, height: max(1, min(pixelSize.height, height)))
                } else {
                    let width = Int((Double(pixelSize.width) * heightRatio).rounded())
                    target = PixelSize(width: max(1, min(pixelSize.width, width)), height: thumbnail.height)
                }
            } else {
                target = PixelSize(width: min(thumbnail.width, pixelSize.width), height: min(thumbnail.height, pixelSize.height))
            }
        }
        if let limit = scaleDownLimitBytes, limit > 0 {
            let frames = Double(max(1, frameCount))
            let pixelBudget = Double(limit) / frames / 4
            let current = Double(target.width) * Double(target.height)
            if current > pixelBudget {
                target = Self.scaled(target, by: (pixelBudget / current).squareRoot())
            }
        }
        return target
    }

    private static func scaled(_ size: PixelSize, by ratio: Double) -> PixelSize {
        PixelSize(
            width: max(1, min(size.width, Int((Double(size.width) * ratio).rounded(.down)))),
            height: max(1, min(size.height, Int((Double(size.height) * ratio).rounded(.down))))
        )
    }
}
