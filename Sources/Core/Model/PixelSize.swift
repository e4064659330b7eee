/// A size in whole pixels.
public struct PixelSize: Hashable, Sendable, CustomStringConvertible {
    /// Width in pixels (>= 0).
    public var width: Int
    /// Height in pixels (>= 0).
    public var height: Int

    /// A size of `width` by `height` pixels.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// The zero size, which means "no thumbnail" where a thumbnail size is asked for.
    public static let zero = PixelSize(width: 0, height: 0)

    /// `width * height`, or `nil` on overflow (a crafted header can claim absurd sizes).
    public var pixelCount: Int? {
        let (product, overflow) = width.multipliedReportingOverflow(by: height)
        return overflow ? nil : product
    }

    /// Whether either side is zero or negative.
    public var isEmpty: Bool { width <= 0 || height <= 0 }

    /// `WIDTHxHEIGHT`, as `4000x3000`.
    public var description: String { "\(width)x\(height)" }
}
