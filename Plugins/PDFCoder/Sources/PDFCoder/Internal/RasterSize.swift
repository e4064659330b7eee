import WebImageCore

/// The pixel size a vector document is rasterised at: the rule of the project's raster coders
/// (``/WebImageCore/ImageDecodeOptions/targetPixelSize(for:frameCount:)``) with one difference,
/// that a vector is never enlarged by resampling but rendered, so a thumbnail request larger
/// than the document's own size renders at the size asked for.
enum RasterSize {
    /// What ``choose(natural:options:)`` decided.
    struct Choice: Equatable {
        /// The size to render at.
        var size: PixelSize
        /// Whether a thumbnail request or a scale-down budget chose it (the image is marked
        /// ``/WebImageCore/ImageMetadata/thumbnail``).
        var isThumbnail: Bool
        /// Whether the pixel limit made it smaller than asked.
        var isCapped: Bool
    }

    /// The size for a document whose own size is `natural` (in pixels, fractional allowed).
    /// - A thumbnail request (`thumbnailPixelSize`) keeps the aspect ratio when
    ///   `preserveAspectRatio`: the constraining side is exactly the request's, the other is
    ///   rounded to nearest (at least 1); otherwise it is exactly the request.
    /// - `scaleDownLimitBytes` then shrinks it to fit the budget, as for raster images.
    /// - Last, a size over `maxPixelCount` is scaled down, aspect kept, until it fits: the
    ///   document is drawn smaller, never refused for its declared size.
    static func choose(natural: (width: Double, height: Double), options: ImageDecodeOptions) -> Choice {
        let width = max(natural.width, 1e-6), height = max(natural.height, 1e-6)
        var size = fitted(width, height)
        var isThumbnail = false
        if let thumbnail = options.thumbnailPixelSize, !thumbnail.isEmpty {
            isThumbnail = true
            if options.preserveAspectRatio {
                let widthRatio = Double(thumbnail.width) / width
                let heightRatio = Double(thumbnail.height) / height
                if widthRatio <= heightRatio {
                    size = fitted(Double(thumbnail.width), height * widthRatio)
                } else {
                    size = fitted(width * heightRatio, Double(thumbnail.height))
                }
            } else {
                size = fitted(Double(thumbnail.width), Double(thumbnail.height))
            }
        }
        if let limit = options.scaleDownLimitBytes, limit > 0 {
            let budget = Double(limit) / 4
            let current = Double(size.width) * Double(size.height)
            if current > budget {
                size = scaled(size, by: (budget / current).squareRoot())
                isThumbnail = true
            }
        }
        let maximum = Double(max(1, options.maxPixelCount))
        let current = Double(size.width) * Double(size.height)
        var isCapped = size.width >= maximumSide || size.height >= maximumSide
        if current > maximum {
            size = scaled(size, by: (maximum / current).squareRoot())
            isCapped = true
        }
        return Choice(size: size, isThumbnail: isThumbnail, isCapped: isCapped)
    }

    /// `width` x `height` rounded to whole pixels, scaled down (aspect kept) so that no side is
    /// over ``maximumSide``; at least 1x1.
    static func fitted(_ width: Double, _ height: Double) -> PixelSize {
        guard width.isFinite, height.isFinite else { return PixelSize(width: 1, height: 1) }
        let ratio = min(1, Double(maximumSide) / max(width, height, 1))
        return PixelSize(width: clamp((width * ratio).rounded()), height: clamp((height * ratio).rounded()))
    }

    /// The largest side cairo's image surfaces accept (32767).
    static let maximumSide = 32767

    /// `value` as a side in 1...``maximumSide``.
    static func clamp(_ value: Double) -> Int {
        guard value.isFinite else { return maximumSide }
        return Int(min(Double(maximumSide), max(1, value)))
    }

    private static func scaled(_ size: PixelSize, by ratio: Double) -> PixelSize {
        PixelSize(
            width: clamp((Double(size.width) * ratio).rounded(.down)),
            height: clamp((Double(size.height) * ratio).rounded(.down))
        )
    }
}
