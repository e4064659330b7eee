import WebImageCore

/// What every encoder does to its input before writing: pick the frame, honour
/// `maxPixelSize`, drop alpha where the format has none.
enum EncodingPreparation {
    /// The frames to encode, read one at a time (``PreparedFrames``): the first frame alone
    /// with `firstFrameOnly` or for a still image, else every frame with its duration; each
    /// downsized to `maxPixelSize`.
    static func frames(of image: WebImage, options: ImageEncodeOptions) -> PreparedFrames {
        PreparedFrames(image: image, options: options)
    }

    /// The first frame of `image`, downsized (aspect kept, Lanczos-3) so that neither side is
    /// over `maxPixelSize`.
    static func bitmap(of image: WebImage, maxPixelSize: PixelSize?) throws -> Bitmap {
        try fitted(image.bitmap, maxPixelSize: maxPixelSize)
    }

    /// `bitmap` downsized so that neither side is over `maxPixelSize` (unchanged if it fits).
    static func fitted(_ bitmap: Bitmap, maxPixelSize: PixelSize?) throws -> Bitmap {
        guard let size = fittedSize(bitmap.size, maxPixelSize: maxPixelSize) else { return bitmap }
        return try Thumbnail.resize(bitmap, to: size)
    }

    /// The size `size` shrinks to under `maxPixelSize`, or `nil` if it already fits
    /// (``/WebImageCore/ImageEncodeOptions/fittedSize(for:)``).
    static func fittedSize(_ size: PixelSize, maxPixelSize: PixelSize?) -> PixelSize? {
        var options = ImageEncodeOptions()
        options.maxPixelSize = maxPixelSize
        return options.fittedSize(for: size)
    }

    /// `bitmap` composited over an opaque `background` (straight alpha), marked opaque.
    static func flattened(_ bitmap: Bitmap, onto background: RGBAColor) -> Bitmap {
        var result = bitmap
        let red = Int(background.red), green = Int(background.green), blue = Int(background.blue)
        result.bytes.withUnsafeMutableBufferPointer { buffer in
            for y in 0..<bitmap.height {
                var index = y * bitmap.bytesPerRow
                let end = index + bitmap.width * 4
                while index < end {
                    let alpha = Int(buffer[index + 3])
                    if alpha != 255 {
                        let inverse = 255 - alpha
                        buffer[index] = UInt8((Int(buffer[index]) * alpha + red * inverse + 127) / 255)
                        buffer[index + 1] = UInt8((Int(buffer[index + 1]) * alpha + green * inverse + 127) / 255)
                        buffer[index + 2] = UInt8((Int(buffer[index + 2]) * alpha + blue * inverse + 127) / 255)
                        buffer[index + 3] = 255
                    }
                    index += 4
                }
            }
        }
        result.hasAlpha = false
        return result
    }
}
