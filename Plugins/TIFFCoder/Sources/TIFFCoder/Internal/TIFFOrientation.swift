import WebImageCore

/// The TIFF `Orientation` tag (274), the same values as EXIF's: 1 upright, 2 mirrored
/// horizontally, 3 rotated 180°, 4 mirrored vertically, 5 transposed, 6 needs a 90° clockwise
/// turn, 7 transversed, 8 needs a 90° counter-clockwise turn. Applied to decoded pixels.
enum TIFFOrientation {
    /// `bitmap` as it shows under `orientation`.
    static func apply(_ orientation: Int, to bitmap: Bitmap) throws -> Bitmap {
        guard (2...8).contains(orientation) else { return bitmap }
        let width = bitmap.width, height = bitmap.height, stride = bitmap.bytesPerRow
        let swaps = orientation >= 5
        let outWidth = swaps ? height : width, outHeight = swaps ? width : height
        var out = [UInt8](repeating: 0, count: outWidth * outHeight * 4)
        bitmap.bytes.withUnsafeBytes { source in
            out.withUnsafeMutableBytes { destination in
                for y in 0..<outHeight {
                    for x in 0..<outWidth {
                        let sx: Int, sy: Int
                        switch orientation {
                        case 2: sx = width - 1 - x; sy = y
                        case 3: sx = width - 1 - x; sy = height - 1 - y
                        case 4: sx = x; sy = height - 1 - y
                        case 5: sx = y; sy = x
                        case 6: sx = y; sy = height - 1 - x
                        case 7: sx = width - 1 - y; sy = height - 1 - x
                        default: sx = width - 1 - y; sy = x
                        }
                        let from = sy * stride + sx * 4, to = (y * outWidth + x) * 4
                        destination.storeBytes(of: source.loadUnaligned(fromByteOffset: from, as: UInt32.self), toByteOffset: to, as: UInt32.self)
                    }
                }
            }
        }
        return try Bitmap(width: outWidth, height: outHeight, bytes: out, hasAlpha: bitmap.hasAlpha)
    }
}
