/// A 4x5 color matrix: each output channel is a weighted sum of the input channels plus an
/// offset, on straight (non-premultiplied) values scaled to 0...1:
///
/// ```
/// R' = m[0] R + m[1] G + m[2] B + m[3] A + m[4]
/// G' = m[5] R + ...                     + m[9]
/// B' = m[10] R + ...                    + m[14]
/// A' = m[15] R + ...                    + m[19]
/// ```
///
/// (the layout of Android's `ColorMatrix` and of SVG's `feColorMatrix`, offsets in 0...1 units).
/// Results are clamped to 0...1 and rounded to the nearest 8-bit value. Values are rounded to
/// six decimals when the matrix is made, the precision of ``ColorMatrixTransformer``'s key.
public struct ColorMatrix: Hashable, Sendable {
    /// The 20 values, row by row.
    public let values: [Double]

    /// A matrix from its 20 values, row by row. Missing values are taken from the identity
    /// and extra values are ignored, so any array makes a valid matrix.
    public init(_ values: [Double]) {
        var all = ColorMatrix.identityValues
        for (index, value) in values.prefix(20).enumerated() { all[index] = value }
        self.values = all.map(TransformerKeyFormat.quantize)
    }

    private static let identityValues: [Double] = [
        1, 0, 0, 0, 0,
        0, 1, 0, 0, 0,
        0, 0, 1, 0, 0,
        0, 0, 0, 1, 0,
    ]

    /// Leaves every color unchanged.
    public static let identity = ColorMatrix(identityValues)

    /// Luminance weights of the CSS Filter Effects specification (Rec. 709): 0.2126, 0.7152, 0.0722.
    private static let luminance = (r: 0.2126, g: 0.7152, b: 0.0722)

    /// Full desaturation to luminance (CSS `grayscale(1)`): every channel becomes
    /// `0.2126 R + 0.7152 G + 0.0722 B`.
    public static let grayscale = saturation(0)

    /// The sepia tone of CSS `sepia(1)`.
    public static let sepia = ColorMatrix([
        0.393, 0.769, 0.189, 0, 0,
        0.349, 0.686, 0.168, 0, 0,
        0.272, 0.534, 0.131, 0, 0,
        0, 0, 0, 1, 0,
    ])

    /// Inverts the colors (alpha kept): `C' = 1 - C`.
    public static let invert = ColorMatrix([
        -1, 0, 0, 0, 1,
        0, -1, 0, 0, 1,
        0, 0, -1, 0, 1,
        0, 0, 0, 1, 0,
    ])

    /// Adds `amount` to each color channel (as Core Image's `CIColorControls` brightness):
    /// -1 makes black, 0 changes nothing, 1 makes white.
    public static func brightness(_ amount: Double) -> ColorMatrix {
        ColorMatrix([
            1, 0, 0, 0, amount,
            0, 1, 0, 0, amount,
            0, 0, 1, 0, amount,
            0, 0, 0, 1, 0,
        ])
    }

    /// Scales each color channel's distance from mid-gray: `C' = (C - 0.5) factor + 0.5`.
    /// 1 changes nothing, 0 makes mid-gray, above 1 adds contrast.
    public static func contrast(_ factor: Double) -> ColorMatrix {
        let offset = 0.5 * (1 - factor)
        return ColorMatrix([
            factor, 0, 0, 0, offset,
            0, factor, 0, 0, offset,
            0, 0, factor, 0, offset,
            0, 0, 0, 1, 0,
        ])
    }

    /// Saturation as CSS `saturate(s)`: 0 is grayscale (luminance), 1 changes nothing, above 1
    /// oversaturates.
    public static func saturation(_ s: Double) -> ColorMatrix {
        let (lr, lg, lb) = luminance
        return ColorMatrix([
            lr + (1 - lr) * s, lg - lg * s, lb - lb * s, 0, 0,
            lr - lr * s, lg + (1 - lg) * s, lb - lb * s, 0, 0,
            lr - lr * s, lg - lg * s, lb + (1 - lb) * s, 0, 0,
            0, 0, 0, 1, 0,
        ])
    }

    /// The matrix that applies `self` first, then `next`.
    public func concatenated(with next: ColorMatrix) -> ColorMatrix {
        // Treat each as a 5x5 affine matrix with the last row (0 0 0 0 1): result = next x self.
        var result = [Double](repeating: 0, count: 20)
        for row in 0..<4 {
            for column in 0..<5 {
                var sum = column == 4 ? next.values[row * 5 + 4] : 0
                for k in 0..<4 {
                    sum += next.values[row * 5 + k] * values[k * 5 + column]
                }
                result[row * 5 + column] = sum
            }
        }
        return ColorMatrix(result)
    }

    /// Whether the alpha row is the identity (alpha passes unchanged).
    var keepsAlpha: Bool {
        values[15] == 0 && values[16] == 0 && values[17] == 0 && values[18] == 1 && values[19] == 0
    }
}
