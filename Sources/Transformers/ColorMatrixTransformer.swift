public import WebImageCore

/// Applies a ``ColorMatrix`` to every pixel (SDWebImage's `SDImageFilterTransformer` with a
/// color-matrix filter): grayscale, sepia, brightness, contrast, saturation, invert, or any matrix.
///
/// The matrix works on straight (non-premultiplied) colors scaled to 0...1; results are clamped
/// and rounded to the nearest 8-bit value. The identity matrix leaves every pixel unchanged.
/// The scale factor, format and metadata are kept, ``/WebImageCore/ImageMetadata/transformed`` is added, and
/// every frame of an animated image is filtered. The output has alpha if the input has, or if
/// the matrix changes alpha.
///
/// Animated images: every frame is transformed, keeping the frame count, durations and loop
/// count. A lazily decoded animation (``/WebImageCore/WebImage/isLazilyAnimated``) gives a lazily
/// transformed one: frame 0 now, frame `n` when it is read, a bounded number held at once (see
/// ``/WebImageCore/WebImage/mappingFrames(transformerKey:_:)``); an animation whose frames are all
/// held gives one whose transformed frames are all held. Whether to transform animated images
/// at all is the caller's choice (SDWebImage's `transformAnimatedImage` option).
///
/// Key: `ColorMatrixTransformer(m0,...,m19)`, the 20 values with six decimals, row by row.
///
/// Thread-safety: an immutable value; use it from any thread.
public struct ColorMatrixTransformer: ImageTransformer, Hashable {
    /// The matrix.
    public let matrix: ColorMatrix

    /// A transformer that applies `matrix` to every pixel.
    /// - Parameter matrix: The matrix to apply.
    public init(matrix: ColorMatrix) {
        self.matrix = matrix
    }

    /// `ColorMatrixTransformer(m0,...,m19)`.
    public var transformerKey: String {
        TransformerKeyFormat.key("ColorMatrixTransformer", matrix.values.map(TransformerKeyFormat.format))
    }

    /// Filters every frame of `image`.
    /// - Throws: ``/WebImageCore/WebImageError/Code/invalidArgument`` if a matrix value is not finite.
    public func transform(_ image: WebImage, forKey key: String) throws -> WebImage {
        guard matrix.values.allSatisfy(\.isFinite) else {
            throw WebImageError(.invalidArgument, "\(transformerKey): the color matrix has a value that is not finite (key \(key))")
        }
        return try image.mappingFrames(transformerKey: transformerKey) { try apply($0) }
    }

    private func apply(_ bitmap: Bitmap) throws -> Bitmap {
        let m = matrix.values.map(Float.init)
        // Columns in 0...255 units: out = cR r + cG g + cB b + cA a + offset (all in 0...255).
        let cR = SIMD4<Float>(m[0], m[5], m[10], m[15])
        let cG = SIMD4<Float>(m[1], m[6], m[11], m[16])
        let cB = SIMD4<Float>(m[2], m[7], m[12], m[17])
        let cA = SIMD4<Float>(m[3], m[8], m[13], m[18])
        let offset = SIMD4<Float>(m[4], m[9], m[14], m[19]) * 255
        var output = try Bitmap(
            width: bitmap.width, height: bitmap.height, bytesPerRow: bitmap.bytesPerRow, bytes: bitmap.bytes,
            hasAlpha: bitmap.hasAlpha || !matrix.keepsAlpha)
        let width = bitmap.width
        let stride = bitmap.bytesPerRow
        output.bytes.withUnsafeMutableBytes { buffer in
            let base = buffer.baseAddress!
            for y in 0..<bitmap.height {
                for x in 0..<width {
                    let at = y * stride + x * 4
                    let p = SIMD4<Float>(SIMD4<Int32>(truncatingIfNeeded: base.loadUnaligned(fromByteOffset: at, as: SIMD4<UInt8>.self)))
                    let rg: SIMD4<Float> = cR * p[0] + cG * p[1]
                    let ba: SIMD4<Float> = cB * p[2] + cA * p[3]
                    var v: SIMD4<Float> = rg + ba
                    v += offset
                    let pixel = PremultipliedPixel.roundToBytes(v)
                    base.storeBytes(of: pixel, toByteOffset: at, as: SIMD4<UInt8>.self)
                }
            }
        }
        return output
    }
}

extension ImageTransformer where Self == ColorMatrixTransformer {
    /// A ``ColorMatrixTransformer`` with any matrix: `.colorMatrix(.sepia.concatenated(with: .contrast(1.2)))`.
    /// - Parameter matrix: The matrix.
    public static func colorMatrix(_ matrix: ColorMatrix) -> ColorMatrixTransformer {
        ColorMatrixTransformer(matrix: matrix)
    }

    /// Grayscale by luminance (``ColorMatrix/grayscale``).
    public static var grayscale: ColorMatrixTransformer { ColorMatrixTransformer(matrix: .grayscale) }

    /// Sepia tone (``ColorMatrix/sepia``).
    public static var sepia: ColorMatrixTransformer { ColorMatrixTransformer(matrix: .sepia) }

    /// Inverted colors (``ColorMatrix/invert``).
    public static var invert: ColorMatrixTransformer { ColorMatrixTransformer(matrix: .invert) }

    /// Brightness (``ColorMatrix/brightness(_:)``): -1...1, 0 changes nothing.
    public static func brightness(_ amount: Double) -> ColorMatrixTransformer {
        ColorMatrixTransformer(matrix: .brightness(amount))
    }

    /// Contrast (``ColorMatrix/contrast(_:)``): 1 changes nothing.
    public static func contrast(_ factor: Double) -> ColorMatrixTransformer {
        ColorMatrixTransformer(matrix: .contrast(factor))
    }

    /// Saturation (``ColorMatrix/saturation(_:)``): 0 is grayscale, 1 changes nothing.
    public static func saturation(_ s: Double) -> ColorMatrixTransformer {
        ColorMatrixTransformer(matrix: .saturation(s))
    }
}
