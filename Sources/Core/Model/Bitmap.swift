/// A decoded raster: RGBA8 pixels, 4 bytes per pixel in the order red, green, blue, alpha,
/// rows top to bottom, with STRAIGHT (non-premultiplied) alpha.
///
/// Straight alpha is the one convention everywhere in SwiftWebImage: coders produce it and
/// consume it; transformers that filter (resize, blur) premultiply internally and convert back,
/// so no dark halos appear around transparent edges.
///
/// `Bitmap` is a value type with copy-on-write storage; it is `Sendable` and cheap to pass.
public struct Bitmap: Hashable, Sendable {
    /// Bytes per pixel: always 4 (RGBA8).
    public static let bytesPerPixel = 4

    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Bytes from the start of one row to the start of the next (>= `width * 4`).
    public let bytesPerRow: Int
    /// Whether the source format carries an alpha channel. A bitmap decoded from an opaque
    /// format says `false` even though every pixel has an alpha byte (255); encoders use this
    /// to choose, for example, JPEG over PNG.
    public var hasAlpha: Bool
    /// The pixel bytes, `bytesPerRow * height` of them.
    public var bytes: [UInt8]

    /// The pixel size.
    public var size: PixelSize { PixelSize(width: width, height: height) }

    /// The memory the pixels take, in bytes.
    public var byteCount: Int { bytes.count }

    /// A bitmap filled with one color.
    /// - Throws: ``WebImageError/Code/invalidArgument`` if a side is negative or the byte count
    ///   overflows.
    public init(width: Int, height: Int, fill: RGBAColor = .clear, hasAlpha: Bool = true) throws {
        let bytesPerRow = try Self.checkedBytesPerRow(width: width, height: height)
        self.width = width
        self.height = height
        self.bytesPerRow = bytesPerRow
        self.hasAlpha = hasAlpha
        let count = bytesPerRow * height
        if fill == .clear {
            bytes = [UInt8](repeating: 0, count: count)
        } else {
            var pixels = [UInt8](repeating: 0, count: count)
            pixels.withUnsafeMutableBufferPointer { buffer in
                var index = 0
                while index < count {
                    buffer[index] = fill.red
                    buffer[index + 1] = fill.green
                    buffer[index + 2] = fill.blue
                    buffer[index + 3] = fill.alpha
                    index += 4
                }
            }
            bytes = pixels
        }
    }

    /// A bitmap over existing pixel bytes.
    /// - Parameters:
    ///   - width: Width in pixels.
    ///   - height: Height in pixels.
    ///   - bytesPerRow: Defaults to `width * 4`; must be at least that.
    ///   - bytes: RGBA8 pixels, straight alpha, `height` rows of `bytesPerRow` bytes.
    ///   - hasAlpha: Whether any pixel may be transparent (`false` lets encoders drop alpha).
    /// - Throws: ``WebImageError/Code/invalidArgument`` if the sizes do not match the bytes.
    public init(width: Int, height: Int, bytesPerRow: Int? = nil, bytes: [UInt8], hasAlpha: Bool = true) throws {
        let minimumRow = try Self.checkedBytesPerRow(width: width, height: height)
        let row = bytesPerRow ?? minimumRow
        guard row >= minimumRow else {
            throw WebImageError(.invalidArgument, "bytesPerRow \(row) is less than width \(width) x 4")
        }
        let (needed, overflow) = row.multipliedReportingOverflow(by: height)
        guard !overflow, bytes.count >= needed else {
            throw WebImageError(.invalidArgument, "a \(width)x\(height) bitmap with \(row) bytes per row needs \(needed) bytes, got \(bytes.count)")
        }
        self.width = width
        self.height = height
        self.bytesPerRow = row
        self.hasAlpha = hasAlpha
        self.bytes = bytes.count == needed ? bytes : Array(bytes.prefix(needed))
    }

    private static func checkedBytesPerRow(width: Int, height: Int) throws -> Int {
        guard width >= 0, height >= 0 else {
            throw WebImageError(.invalidArgument, "bitmap size \(width)x\(height) has a negative side")
        }
        let (row, rowOverflow) = width.multipliedReportingOverflow(by: bytesPerPixel)
        let (_, totalOverflow) = row.multipliedReportingOverflow(by: height)
        guard !rowOverflow, !totalOverflow else {
            throw WebImageError(.invalidArgument, "bitmap size \(width)x\(height) overflows the byte count")
        }
        return row
    }

    /// The pixel at column `x`, row `y` (0-based, from the top left).
    /// - Precondition: `0 <= x < width` and `0 <= y < height`.
    public subscript(x: Int, y: Int) -> RGBAColor {
        get {
            precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) is outside \(width)x\(height)")
            let offset = y * bytesPerRow + x * 4
            return RGBAColor(red: bytes[offset], green: bytes[offset + 1], blue: bytes[offset + 2], alpha: bytes[offset + 3])
        }
        set {
            precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) is outside \(width)x\(height)")
            let offset = y * bytesPerRow + x * 4
            bytes[offset] = newValue.red
            bytes[offset + 1] = newValue.green
            bytes[offset + 2] = newValue.blue
            bytes[offset + 3] = newValue.alpha
        }
    }

    /// Whether every pixel's alpha is 255 (a scan of the pixels; `hasAlpha` is the cheap flag).
    public var isOpaque: Bool {
        bytes.withUnsafeBufferPointer { buffer in
            for y in 0..<height {
                var offset = y * bytesPerRow + 3
                let end = y * bytesPerRow + width * 4
                while offset < end {
                    if buffer[offset] != 255 { return false }
                    offset += 4
                }
            }
            return true
        }
    }
}
