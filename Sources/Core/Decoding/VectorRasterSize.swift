/// The pixel size a vector document is rasterised at: the rule of the project's raster coders
/// (``ImageDecodeOptions/targetPixelSize(for:frameCount:)``) with one difference,
/// that a vector is never enlarged by resampling but rendered, so a thumbnail request larger
/// than the document's own size renders at the size asked for.
public enum VectorRasterSize {
    /// What ``choose(natural:options:)`` decided.
    public struct Choice: Sendable, Equatable {
        /// The size to render at.
        public var size: PixelSize
        /// Whether a thumbnail request or a scale-down budget chose it (the image is marked
        /// ``ImageMetadata/thumbnail``).
        public var isThumbnail: Bool
        /// Whether the pixel limit made it smaller than asked.
        public var isCapped: Bool
    }

    /// The size for a document whose own size is `natural` (in pixels, fractional allowed).
    /// - A thumbnail request (`thumbnailPixelSize`) keeps the aspect ratio when
    ///   `preserveAspectRatio`: the constraining side is exactly the request's, the other is
    ///   rounded to nearest (at least 1); otherwise it is exactly the request.
    /// - `scaleDownLimitBytes` then shrinks it to fit the budget, as for raster images.
    /// - Last, a size over `maxPixelCount`, or with a side over ``maximumSide``, is scaled down,
    ///   aspect kept, until it fits: the document is drawn smaller, never refused for its
    ///   declared size. The sides are rounded once, at the end.
    public static func choose(natural: (width: Double, height: Double), options: ImageDecodeOptions) -> Choice {
        let naturalWidth = natural.width.isFinite ? max(natural.width, 1e-6) : Double(maximumSide)
        let naturalHeight = natural.height.isFinite ? max(natural.height, 1e-6) : Double(maximumSide)
        // Fractional sizes until the end, rounded once, so that every scaling keeps the aspect.
        var width = naturalWidth, height = naturalHeight
        var isThumbnail = false
        if let thumbnail = options.thumbnailPixelSize, !thumbnail.isEmpty {
            isThumbnail = true
            if options.preserveAspectRatio {
                let widthRatio = Double(thumbnail.width) / naturalWidth
                let heightRatio = Double(thumbnail.height) / naturalHeight
                if widthRatio <= heightRatio {
                    (width, height) = (Double(thumbnail.width), naturalHeight * widthRatio)
                } else {
                    (width, height) = (naturalWidth * heightRatio, Double(thumbnail.height))
                }
            } else {
                (width, height) = (Double(thumbnail.width), Double(thumbnail.height))
            }
        }
        if let limit = options.scaleDownLimitBytes, limit > 0 {
            let budget = Double(limit) / 4
            if width * height > budget {
                let ratio = (budget / (width * height)).squareRoot()
                (width, height) = (width * ratio, height * ratio)
                isThumbnail = true
            }
        }
        var isCapped = false
        let maximum = Double(max(1, options.maxPixelCount))
        if width * height > maximum {
            let ratio = (maximum / (width * height)).squareRoot()
            (width, height) = (width * ratio, height * ratio)
            isCapped = true
        }
        if max(width, height) > Double(maximumSide) {
            let ratio = Double(maximumSide) / max(width, height)
            (width, height) = (width * ratio, height * ratio)
            isCapped = true
        }
        var size = PixelSize(width: clamp(width.rounded()), height: clamp(height.rounded()))
        // Rounding up must not take the size over the limit.
        while size.width * size.height > max(1, options.maxPixelCount), size.width > 1 || size.height > 1 {
            if size.width >= size.height { size.width -= 1 } else { size.height -= 1 }
        }
        return Choice(size: size, isThumbnail: isThumbnail, isCapped: isCapped)
    }

    /// The largest side cairo's image surfaces accept (32767).
    public static let maximumSide = 32767

    /// `value` as a side in 1...``maximumSide``.
    static func clamp(_ value: Double) -> Int {
        guard value.isFinite else { return maximumSide }
        return Int(min(Double(maximumSide), max(1, value)))
    }
}
