public import WebImageCore

/// Rounds the corners of an image and optionally draws a border along its edge
/// (SDWebImage's `SDImageRoundCornerTransformer`).
///
/// The shape is the image's rectangle with the chosen ``corners`` rounded to ``radius`` pixels
/// (clamped to half the shorter side). Outside the shape the image becomes transparent. A border
/// of ``borderWidth`` pixels runs inside the shape along its whole outline (straight edges and
/// arcs) and is painted over the image with ``borderColor`` (source-over, so a translucent border
/// lets the image show through).
///
/// Edges are anti-aliased by coverage: a pixel whose center lies at signed distance `d` inside an
/// outline is covered `clamp(d + 0.5, 0, 1)`; this matches the exact area covered within about
/// 0.1 for the curves (exactly for straight edges at whole pixels). Pixels well inside the shape
/// and the border are left untouched, byte for byte.
///
/// The scale factor, format and metadata are kept, ``/WebImageCore/ImageMetadata/transformed`` is added, and
/// every frame of an animated image is processed. The output has alpha when a corner is rounded.
///
/// Animated images: every frame is transformed, keeping the frame count, durations and loop
/// count. A lazily decoded animation (``/WebImageCore/WebImage/isLazilyAnimated``) gives a lazily
/// transformed one: frame 0 now, frame `n` when it is read, a bounded number held at once (see
/// ``/WebImageCore/WebImage/mappingFrames(transformerKey:_:)``); an animation whose frames are all
/// held gives one whose transformed frames are all held. Whether to transform animated images
/// at all is the caller's choice (SDWebImage's `transformAnimatedImage` option).
///
/// Key: `RoundCornerTransformer(radius,corners,borderWidth,borderColor)` with the radius and
/// width in pixels with six decimals, the corners as the bit mask of ``Corners`` (topLeft 1,
/// topRight 2, bottomLeft 4, bottomRight 8, as `UIRectCorner`) and the color as `#RRGGBBAA`:
/// `RoundCornerTransformer(8.000000,15,2.000000,#000000FF)`.
///
/// Thread-safety: an immutable value; use it from any thread.
public struct RoundCornerTransformer: ImageTransformer, Hashable {
    /// Which corners to round (the bits of `UIRectCorner`).
    public struct Corners: OptionSet, Hashable, Sendable {
        /// The bit mask: topLeft 1, topRight 2, bottomLeft 4, bottomRight 8.
        public let rawValue: Int
        /// Creates a set from its bit mask (bits above the four corners are ignored).
        public init(rawValue: Int) { self.rawValue = rawValue & 0xF }
        /// The top-left corner (1).
        public static let topLeft = Corners(rawValue: 1 << 0)
        /// The top-right corner (2).
        public static let topRight = Corners(rawValue: 1 << 1)
        /// The bottom-left corner (4).
        public static let bottomLeft = Corners(rawValue: 1 << 2)
        /// The bottom-right corner (8).
        public static let bottomRight = Corners(rawValue: 1 << 3)
        /// All four corners (15).
        public static let all: Corners = [.topLeft, .topRight, .bottomLeft, .bottomRight]
    }

    /// The corner radius in pixels, rounded to six decimals.
    public let radius: Double
    /// The corners to round.
    public let corners: Corners
    /// The border width in pixels, rounded to six decimals (0: no border).
    public let borderWidth: Double
    /// The border color.
    public let borderColor: RGBAColor

    /// Round corners of `radius` pixels, with an optional border.
    /// - Parameters:
    ///   - radius: The corner radius in pixels, >= 0 (checked when transforming).
    ///   - corners: The corners to round. Default ``Corners/all``.
    ///   - borderWidth: The border width in pixels, >= 0. Default 0 (no border).
    ///   - borderColor: The border color. Default black.
    public init(radius: Double, corners: Corners = .all, borderWidth: Double = 0, borderColor: RGBAColor = .black) {
        self.radius = TransformerKeyFormat.quantize(radius)
        self.corners = corners
        self.borderWidth = TransformerKeyFormat.quantize(borderWidth)
        self.borderColor = borderColor
    }

    /// `RoundCornerTransformer(radius,corners,borderWidth,borderColor)`.
    public var transformerKey: String {
        TransformerKeyFormat.key("RoundCornerTransformer", [
            TransformerKeyFormat.format(radius), "\(corners.rawValue)",
            TransformerKeyFormat.format(borderWidth), TransformerKeyFormat.format(borderColor),
        ])
    }

    /// Rounds the corners of every frame of `image`.
    /// - Throws: ``/WebImageCore/WebImageError/Code/invalidArgument`` for a negative or non-finite radius or
    ///   border width.
    public func transform(_ image: WebImage, forKey key: String) throws -> WebImage {
        guard radius.isFinite, radius >= 0, borderWidth.isFinite, borderWidth >= 0 else {
            throw WebImageError(.invalidArgument, "\(transformerKey): the radius \(radius) and border width \(borderWidth) must be finite and >= 0 (key \(key))")
        }
        return try image.mappingFrames(transformerKey: transformerKey) { try round($0) }
    }

    /// Processes one bitmap.
    func round(_ bitmap: Bitmap) throws -> Bitmap {
        let width = bitmap.width
        let height = bitmap.height
        guard width > 0, height > 0 else { return bitmap }
        let w = Double(width)
        let h = Double(height)
        let r = corners.isEmpty ? 0 : min(radius, min(w, h) / 2)
        // A border at least as wide as the image covers all of it; clamping keeps the band
        // arithmetic below in range for absurd widths.
        let border = min(borderWidth, max(w, h))
        // Pixels whose center is at least `untouched` inside every outline are left alone.
        let untouched = border + 0.5
        let borderPixel = PremultipliedPixel.load(SIMD4(borderColor.red, borderColor.green, borderColor.blue, borderColor.alpha))
        let borderTransparency = 1 - Float(borderColor.alpha) / 255

        var output = try Bitmap(width: width, height: height, bytesPerRow: bitmap.bytesPerRow, bytes: bitmap.bytes, hasAlpha: bitmap.hasAlpha || r > 0)
        let stride = output.bytesPerRow
        let hasCorner = (
            topLeft: corners.contains(.topLeft), topRight: corners.contains(.topRight),
            bottomLeft: corners.contains(.bottomLeft), bottomRight: corners.contains(.bottomRight))

        /// The signed distance of point (px, py) inside the shape's outline.
        @inline(__always)
        func inside(_ px: Double, _ py: Double) -> Double {
            if r > 0 {
                let left = px < r
                let right = px > w - r
                let top = py < r
                let bottom = py > h - r
                var center: (Double, Double)?
                if left && top && hasCorner.topLeft { center = (r, r) }
                else if right && top && hasCorner.topRight { center = (w - r, r) }
                else if left && bottom && hasCorner.bottomLeft { center = (r, h - r) }
                else if right && bottom && hasCorner.bottomRight { center = (w - r, h - r) }
                if let (cx, cy) = center {
                    let dx = px - cx
                    let dy = py - cy
                    return r - (dx * dx + dy * dy).squareRoot()
                }
            }
            return min(min(px, w - px), min(py, h - py))
        }

        output.bytes.withUnsafeMutableBytes { buffer in
            let base = buffer.baseAddress!
            // Only the band within max(radius, border) + 1 of an edge can change.
            let band = Int((max(r, untouched) + 1).rounded(.up))
            for y in 0..<height {
                let py = Double(y) + 0.5
                let rowIsEdge = y < band || y >= height - band
                var x = 0
                while x < width {
                    if !rowIsEdge, x == band, width - band > band {
                        x = width - band  // skip the untouched middle of the row
                        continue
                    }
                    let d = inside(Double(x) + 0.5, py)
                    if d < untouched {
                        let shape = Float(min(max(d + 0.5, 0), 1))
                        let interior = border > 0 ? Float(min(max(d - border + 0.5, 0), 1)) : shape
                        let offset = y * stride + x * 4
                        let image = PremultipliedPixel.load(UnsafeRawPointer(base), at: offset)
                        let bordered = borderPixel + image * borderTransparency
                        let value = image * interior + bordered * (shape - interior)
                        base.storeBytes(of: PremultipliedPixel.store(value), toByteOffset: offset, as: SIMD4<UInt8>.self)
                    }
                    x += 1
                }
            }
        }
        return output
    }
}

extension ImageTransformer where Self == RoundCornerTransformer {
    /// A ``RoundCornerTransformer``: `.roundCorner(radius: 8)`.
    /// - Parameters:
    ///   - radius: The corner radius in pixels.
    ///   - corners: The corners to round. Default all.
    ///   - borderWidth: The border width in pixels. Default 0.
    ///   - borderColor: The border color. Default black.
    public static func roundCorner(radius: Double, corners: RoundCornerTransformer.Corners = .all, borderWidth: Double = 0, borderColor: RGBAColor = .black) -> RoundCornerTransformer {
        RoundCornerTransformer(radius: radius, corners: corners, borderWidth: borderWidth, borderColor: borderColor)
    }
}
