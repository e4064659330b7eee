public import WebImageCore
import Foundation

/// Rotates an image by any angle (SDWebImage's `SDImageRotationTransformer`).
///
/// - The angle is in radians; a positive angle turns the picture counterclockwise as it is
///   displayed (SDWebImage's convention). It is rounded to six decimals when the transformer is
///   created (the precision of the key).
/// - Multiples of 90 degrees (within 1e-6 radians) take an exact path: pixels are moved, not
///   resampled, so a quarter turn is lossless.
/// - Other angles sample the source bilinearly in premultiplied space around the image's
///   center; what falls outside the source is transparent, and the edges are anti-aliased by
///   the same sampling. The output then has alpha.
/// - ``fitSize`` `true` grows (or shrinks) the canvas to the rotated image's bounding box, rounded
///   up to whole pixels, so nothing is cut off; `false` keeps the input's size and cuts the
///   corners off (for a quarter turn of a non-square image: the rotated image centered on the
///   original canvas, rounding the offset down, with transparent bands).
///
/// The scale factor, format and metadata are kept, ``/WebImageCore/ImageMetadata/transformed`` is added, and
/// every frame of an animated image is rotated.
///
/// Animated images: every frame is transformed, keeping the frame count, durations and loop
/// count. A lazily decoded animation (``/WebImageCore/WebImage/isLazilyAnimated``) gives a lazily
/// transformed one: frame 0 now, frame `n` when it is read, a bounded number held at once (see
/// ``/WebImageCore/WebImage/mappingFrames(transformerKey:_:)``); an animation whose frames are all
/// held gives one whose transformed frames are all held. Whether to transform animated images
/// at all is the caller's choice (SDWebImage's `transformAnimatedImage` option).
///
/// Key: `RotationTransformer(angle,fitSize)`, the angle in radians with six decimals and
/// fitSize as `1`/`0`: `RotationTransformer(0.785398,1)`.
///
/// Thread-safety: an immutable value; use it from any thread.
public struct RotationTransformer: ImageTransformer, Hashable {
    /// The angle in radians, counterclockwise, rounded to six decimals.
    public let angle: Double
    /// Whether the canvas becomes the rotated image's bounding box.
    public let fitSize: Bool

    /// A rotation by `angle` radians, counterclockwise.
    /// - Parameters:
    ///   - angle: Radians, counterclockwise as displayed; must be finite (checked when transforming).
    ///   - fitSize: Grow the canvas to fit the rotated image. Default `true`.
    public init(angle: Double, fitSize: Bool = true) {
        self.angle = TransformerKeyFormat.quantize(angle)
        self.fitSize = fitSize
    }

    /// `RotationTransformer(angle,fitSize)`.
    public var transformerKey: String {
        TransformerKeyFormat.key("RotationTransformer", [TransformerKeyFormat.format(angle), TransformerKeyFormat.format(fitSize)])
    }

    /// The number of quarter turns when ``angle`` is a multiple of 90 degrees, else `nil`.
    var quarterTurns: Int? {
        let turns = angle / (Double.pi / 2)
        let nearest = turns.rounded()
        guard abs(turns - nearest) * (Double.pi / 2) < 1e-6 else { return nil }
        return Int(nearest.truncatingRemainder(dividingBy: 4))
    }

    /// Rotates every frame of `image`.
    /// - Throws: ``/WebImageCore/WebImageError/Code/invalidArgument`` for a non-finite angle, or when the
    ///   fitted canvas would be over ``/WebImageCore/Bitmap/maximumResampledPixelCount`` pixels.
    public func transform(_ image: WebImage, forKey key: String) throws -> WebImage {
        guard angle.isFinite, abs(angle) < 1e12 else {
            throw WebImageError(.invalidArgument, "\(transformerKey): the angle \(angle) is not a finite number of radians (key \(key))")
        }
        return try image.mappingFrames(transformerKey: transformerKey) { try rotate($0) }
    }

    /// Rotates one bitmap.
    func rotate(_ bitmap: Bitmap) throws -> Bitmap {
        guard bitmap.width > 0, bitmap.height > 0 else { return bitmap }
        if let turns = quarterTurns {
            let rotated = try BitmapOperations.rotate(bitmap, quarterTurns: turns)
            guard !fitSize, rotated.size != bitmap.size else { return rotated }
            var canvas = try Bitmap(width: bitmap.width, height: bitmap.height, fill: .clear, hasAlpha: true)
            BitmapOperations.copy(rotated, into: &canvas, x: (bitmap.width - rotated.width) / 2, y: (bitmap.height - rotated.height) / 2)
            return canvas
        }
        let c = cos(angle)
        let s = sin(angle)
        let w = Double(bitmap.width)
        let h = Double(bitmap.height)
        let outWidth: Int
        let outHeight: Int
        if fitSize {
            outWidth = max(1, Int((abs(w * c) + abs(h * s) - 1e-6).rounded(.up)))
            outHeight = max(1, Int((abs(w * s) + abs(h * c) - 1e-6).rounded(.up)))
        } else {
            outWidth = bitmap.width
            outHeight = bitmap.height
        }
        try WebImage.checkOutputSize(PixelSize(width: outWidth, height: outHeight), transformerKey: transformerKey)
        // Output pixel centers relative to the output center, turned back by -angle, around the
        // source center: (dx, dy) -> (dx cos - dy sin, dx sin + dy cos).
        let dx0 = 0.5 - Double(outWidth) / 2
        let dy0 = 0.5 - Double(outHeight) / 2
        return try BilinearSampler.sample(
            bitmap, width: outWidth, height: outHeight,
            origin: (dx0 * c - dy0 * s + w / 2, dx0 * s + dy0 * c + h / 2),
            column: (c, s), row: (-s, c))
    }
}

extension ImageTransformer where Self == RotationTransformer {
    /// A ``RotationTransformer``: `.rotate(by: .pi / 4)`.
    /// - Parameters:
    ///   - angle: Radians, counterclockwise as displayed.
    ///   - fitSize: Grow the canvas to fit the rotated image. Default `true`.
    public static func rotate(by angle: Double, fitSize: Bool = true) -> RotationTransformer {
        RotationTransformer(angle: angle, fitSize: fitSize)
    }

    /// A ``RotationTransformer`` from degrees: `.rotate(degrees: 90)`.
    /// - Parameters:
    ///   - degrees: Degrees, counterclockwise as displayed (converted to radians).
    ///   - fitSize: Grow the canvas to fit the rotated image. Default `true`.
    public static func rotate(degrees: Double, fitSize: Bool = true) -> RotationTransformer {
        RotationTransformer(angle: degrees * Double.pi / 180, fitSize: fitSize)
    }
}
