public import WebImageCore

/// Blurs an image with a Gaussian (SDWebImage's `SDImageBlurTransformer`).
///
/// - ``radius`` is the Gaussian's standard deviation in pixels (as in Core Image's
///   `CIGaussianBlur` and Pillow's `GaussianBlur`), rounded to six decimals; 0 leaves the pixels
///   unchanged. At most ``maximumRadius``.
/// - Below radius 3 the blur is a direct separable convolution with the sampled Gaussian
///   (normalized, truncated at 4 standard deviations): a true Gaussian.
/// - From radius 3 up it is a succession of plain box blurs per direction (four below radius
///   10, three from 10), of odd integer widths chosen for the radius, summed exactly in
///   integers; its cost does not depend on the radius. Tolerance: the boxes' standard deviation
///   is within 2% of the radius (3% below radius 5), and in each direction the response to a
///   single pixel differs from the normalized sampled Gaussian by at most 0.008 of the total
///   weight (0.005 from radius 5, 0.0025 from radius 10; the widths are chosen to minimize that
///   difference, checked numerically over radii 3...40), so on 8-bit images the result is
///   within one or two levels of a true Gaussian blur. On a side shorter than about six radii
///   the mirrored edges fold the kernel's tails back onto the image and those small differences
///   add up (to about 2%, 5 levels), so such frames use the direct convolution too, as long as
///   it costs at most 2^25 multiply-adds; larger ones (a long thin strip with a huge radius)
///   keep the boxes and that wider tolerance.
/// - Colors are blurred premultiplied by alpha, so transparent pixels do not darken opaque
///   neighbours (no halo); fully transparent output pixels are `(0, 0, 0, 0)`.
/// - Edges are mirrored, which keeps the mean of the image (up to 8-bit rounding).
///
/// The scale factor, format and metadata are kept, ``/WebImageCore/ImageMetadata/transformed`` is added, and
/// every frame of an animated image is blurred.
///
/// Animated images: every frame is transformed, keeping the frame count, durations and loop
/// count. A lazily decoded animation (``/WebImageCore/WebImage/isLazilyAnimated``) gives a lazily
/// transformed one: frame 0 now, frame `n` when it is read, a bounded number held at once (see
/// ``/WebImageCore/WebImage/mappingFrames(transformerKey:_:)``); an animation whose frames are all
/// held gives one whose transformed frames are all held. Whether to transform animated images
/// at all is the caller's choice (SDWebImage's `transformAnimatedImage` option).
///
/// Key: `BlurTransformer(radius)`: `BlurTransformer(10.000000)`.
///
/// Thread-safety: an immutable value; use it from any thread.
public struct BlurTransformer: ImageTransformer, Hashable {
    /// The largest radius accepted: 1000 pixels (more is indistinguishable from the mean color
    /// on any image a device shows, and would only cost padding memory).
    public static let maximumRadius = 1000.0

    /// From this radius up the blur is a succession of boxes; below it, a direct convolution.
    static let boxThreshold = 3.0

    /// The most multiply-adds per frame spent on a direct convolution of a small image.
    static let directBudget = 1 << 25

    /// Whether a frame of `size` is blurred by direct convolution: always below
    /// ``boxThreshold``; for a side shorter than six radii when it costs at most ``directBudget``.
    static func usesDirectConvolution(radius: Double, size: PixelSize) -> Bool {
        if radius < boxThreshold { return true }
        guard Double(min(size.width, size.height)) < 6 * radius else { return false }
        let cost = Double(size.width) * Double(size.height) * (8 * radius + 1) * 2
        return cost <= Double(directBudget)
    }

    /// The Gaussian's standard deviation in pixels, rounded to six decimals.
    public let radius: Double

    /// A Gaussian blur of standard deviation `radius`.
    /// - Parameter radius: The standard deviation in pixels, 0...``maximumRadius`` (checked
    ///   when transforming).
    public init(radius: Double) {
        self.radius = TransformerKeyFormat.quantize(radius)
    }

    /// `BlurTransformer(radius)`.
    public var transformerKey: String {
        TransformerKeyFormat.key("BlurTransformer", [TransformerKeyFormat.format(radius)])
    }

    /// Blurs every frame of `image`.
    /// - Throws: ``/WebImageCore/WebImageError/Code/invalidArgument`` for a radius outside 0...``maximumRadius``.
    public func transform(_ image: WebImage, forKey key: String) throws -> WebImage {
        guard radius.isFinite, radius >= 0, radius <= Self.maximumRadius else {
            throw WebImageError(.invalidArgument, "\(transformerKey): the radius \(radius) is outside 0...\(Self.maximumRadius) (key \(key))")
        }
        guard radius > 0 else {
            return try image.mappingFrames(transformerKey: transformerKey) { $0 }
        }
        let box = radius >= Self.boxThreshold ? GaussianBlurKernel(sigma: radius) : nil
        let direct = DirectGaussianBlur(sigma: radius)
        return try image.mappingFrames(transformerKey: transformerKey) { bitmap in
            if let box, !Self.usesDirectConvolution(radius: radius, size: bitmap.size) {
                return try box.apply(to: bitmap)
            }
            return try direct.apply(to: bitmap)
        }
    }
}

extension ImageTransformer where Self == BlurTransformer {
    /// A ``BlurTransformer``: `.blur(radius: 10)`.
    /// - Parameter radius: The Gaussian's standard deviation in pixels.
    public static func blur(radius: Double) -> BlurTransformer {
        BlurTransformer(radius: radius)
    }
}
