public import WebImageCore

/// A rectangle in whole pixels: its top-left corner (`x`, `y`, from the image's top left) and
/// its size.
public struct PixelRect: Hashable, Sendable, CustomStringConvertible {
    /// The left edge, in pixels from the image's left.
    public var x: Int
    /// The top edge, in pixels from the image's top.
    public var y: Int
    /// The width in pixels.
    public var width: Int
    /// The height in pixels.
    public var height: Int

    /// A rectangle from its origin and size.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// A rectangle from its origin and a ``/WebImageCore/PixelSize``.
    public init(x: Int, y: Int, size: PixelSize) {
        self.init(x: x, y: y, width: size.width, height: size.height)
    }

    /// The size.
    public var size: PixelSize { PixelSize(width: width, height: height) }

    /// Whether either side is zero or negative.
    public var isEmpty: Bool { width <= 0 || height <= 0 }

    /// The overlap of this rectangle and `other`, or `nil` when they do not overlap (overflow-safe).
    public func intersection(_ other: PixelRect) -> PixelRect? {
        guard !isEmpty, !other.isEmpty else { return nil }
        let (right, o1) = x.addingReportingOverflow(width)
        let (otherRight, o2) = other.x.addingReportingOverflow(other.width)
        let (bottom, o3) = y.addingReportingOverflow(height)
        let (otherBottom, o4) = other.y.addingReportingOverflow(other.height)
        let left = max(x, other.x)
        let top = max(y, other.y)
        let r = min(o1 ? Int.max : right, o2 ? Int.max : otherRight)
        let b = min(o3 ? Int.max : bottom, o4 ? Int.max : otherBottom)
        guard left < r, top < b else { return nil }
        return PixelRect(x: left, y: top, width: r - left, height: b - top)
    }

    /// Whether `other` lies entirely inside this rectangle (an empty `other` never does).
    public func contains(_ other: PixelRect) -> Bool {
        guard let overlap = intersection(other) else { return false }
        return overlap == other
    }

    /// `(x,y,WxH)`.
    public var description: String { "(\(x),\(y),\(width)x\(height))" }
}
