import Foundation
import WebImageCore
import WebImageColor

/// Decoding of the first frame of a JPEG XL file in one pass: the basic info is read and
/// checked against the limits, then the pixels are decoded into memory sized from it.
enum JXLStillDecoding {
    /// The first frame of `data` (for a still, the image) at its full, upright size, or `nil`
    /// when the file is an animation and `options` does not ask for its first frame only (the
    /// caller then makes an animation provider).
    /// - Throws: ``WebImageError/Code/badImageData``, ``WebImageError/Code/imageTooLarge``.
    static func decode(_ data: Data, options: ImageDecodeOptions, threads: Int) throws -> (bitmap: Bitmap, info: JXLImageInfo, color: ColorPlan)? {
        let what = "JPEG XL data of \(data.count) bytes"
        let session = try JXLDecoderSession(pixels: true, applyOrientation: options.applyOrientation, threads: threads, what: what, colorProfileHandling: options.colorProfileHandling)
        return try data.withUnsafeBytes { raw in
            try session.setInput(raw)
            let info = try session.readInfo()
            try info.checkLimit(options, byteCount: data.count)
            if info.isAnimated && !options.firstFrameOnly { return nil }
            return (try render(session, info: info), info, session.color)
        }
    }

    /// Renders the session's next frame into a new bitmap of the output size, converted to
    /// sRGB from the profile of libjxl's output when that is not sRGB and not kept.
    static func render(_ session: JXLDecoderSession, info: JXLImageInfo) throws -> Bitmap {
        let size = info.outputSize
        var bitmap = try Bitmap(width: size.width, height: size.height, bytes: session.render(), hasAlpha: info.hasAlpha)
        session.color.apply(to: &bitmap)
        return bitmap
    }

    /// `bitmap` resampled to `size` (Lanczos-3) when they differ.
    static func fitted(_ bitmap: Bitmap, to size: PixelSize) throws -> Bitmap {
        bitmap.size == size ? bitmap : try bitmap.resampled(to: size, filter: .lanczos3)
    }
}
