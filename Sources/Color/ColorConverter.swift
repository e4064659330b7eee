import CLCMS2
public import WebImageCore

/// A conversion to sRGB made ready once for one profile and pixel layout
/// (``ColorConversion/converter(for:layout:)``): a decoder that converts many rows or frames
/// looks its transform up once instead of hashing the profile for every call.
public struct ColorConverter: Sendable {
    /// The transform, whose handle is not `nil` (sRGB profiles have no converter).
    let transform: ColorTransform

    init?(_ transform: ColorTransform) {
        guard transform.handle != nil else { return nil }
        self.transform = transform
    }

    /// Converts `rows` rows of `width` pixels at `source` to sRGB RGBA rows at `destination`,
    /// whose alpha bytes are left as they are (see ``ColorConversion/Layout``).
    public func convertRows(from source: UnsafeRawPointer, sourceBytesPerRow: Int, to destination: UnsafeMutableRawPointer, destinationBytesPerRow: Int, width: Int, rows: Int) {
        guard width > 0, rows > 0, let handle = transform.handle else { return }
        cmsDoTransformLineStride(handle, source, destination, UInt32(width), UInt32(rows), UInt32(sourceBytesPerRow), UInt32(destinationBytesPerRow), 0, 0)
    }

    /// Converts `bitmap` in place (a converter made for ``ColorConversion/Layout/rgba``).
    public func convert(_ bitmap: inout Bitmap) {
        let (width, height, bytesPerRow) = (bitmap.width, bitmap.height, bitmap.bytesPerRow)
        bitmap.bytes.withUnsafeMutableBytes { raw in
            guard let base = raw.baseAddress else { return }
            convertRows(from: base, sourceBytesPerRow: bytesPerRow, to: base, destinationBytesPerRow: bytesPerRow, width: width, rows: height)
        }
    }
}
