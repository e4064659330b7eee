import WebImageCore

/// The pixel work of the filters the framework's transformers do not cover: placing an image
/// on a `fill(...)` canvas (thumbor's `round_corner` is ``ThumborRoundCorner``).
enum BitmapCompositing {
    /// The pixel at `offset` (straight alpha) composited over `background`, in place.
    static func blend(over background: RGBAColor, pixels: UnsafeMutableBufferPointer<UInt8>, at offset: Int) {
        let alpha = Int(pixels[offset + 3])
        guard alpha < 255 else { return }
        let backgroundAlpha = Int(background.alpha) * (255 - alpha) / 255
        let outAlpha = alpha + backgroundAlpha
        guard outAlpha > 0 else {
            pixels[offset] = 0; pixels[offset + 1] = 0; pixels[offset + 2] = 0; pixels[offset + 3] = 0
            return
        }
        let channels = [background.red, background.green, background.blue]
        for channel in 0..<3 {
            let value = (Int(pixels[offset + channel]) * alpha + Int(channels[channel]) * backgroundAlpha + outAlpha / 2) / outAlpha
            pixels[offset + channel] = UInt8(min(255, value))
        }
        pixels[offset + 3] = UInt8(outAlpha)
    }

    /// `image` on `background` (which sets the size) with its top-left corner at `origin`
    /// (centred when `nil`, rounding down). Without `merging`, its pixels replace the
    /// background's (thumbor's default paste: transparent pixels stay transparent); with it,
    /// they are composited over the background (`fill(color,true)`). What falls outside the
    /// background is cut off.
    static func place(_ image: Bitmap, on background: Bitmap, at origin: (x: Int, y: Int)? = nil, merging: Bool = false) -> Bitmap {
        var canvas = background
        func floorHalf(_ value: Int) -> Int { value >= 0 ? value / 2 : -((-value + 1) / 2) }
        let left = origin?.x ?? floorHalf(background.width - image.width)
        let top = origin?.y ?? floorHalf(background.height - image.height)
        let sourceX = max(0, -left), sourceY = max(0, -top)
        let targetX = max(0, left), targetY = max(0, top)
        let copyWidth = min(image.width - sourceX, background.width - targetX)
        let copyHeight = min(image.height - sourceY, background.height - targetY)
        guard copyWidth > 0, copyHeight > 0 else { return canvas }
        canvas.hasAlpha = merging ? background.hasAlpha : background.hasAlpha || image.hasAlpha
        canvas.bytes.withUnsafeMutableBufferPointer { target in
            image.bytes.withUnsafeBufferPointer { source in
                for y in 0..<copyHeight {
                    let from = (sourceY + y) * image.bytesPerRow + sourceX * 4
                    let to = (targetY + y) * background.bytesPerRow + targetX * 4
                    if merging {
                        for x in 0..<copyWidth {
                            let pixel = from + x * 4, under = to + x * 4
                            let below = RGBAColor(red: target[under], green: target[under + 1], blue: target[under + 2], alpha: target[under + 3])
                            for channel in 0..<4 { target[under + channel] = source[pixel + channel] }
                            blend(over: below, pixels: target, at: under)
                        }
                    } else {
                        for index in 0..<(copyWidth * 4) {
                            target[to + index] = source[from + index]
                        }
                    }
                }
            }
        }
        return canvas
    }

    /// The mean colour of `bitmap` (thumbor's `fill(auto)`), opaque.
    static func meanColor(of bitmap: Bitmap) -> RGBAColor {
        var sums = (0, 0, 0)
        let count = max(1, bitmap.width * bitmap.height)
        bitmap.bytes.withUnsafeBufferPointer { pixels in
            for y in 0..<bitmap.height {
                var offset = y * bitmap.bytesPerRow
                for _ in 0..<bitmap.width {
                    sums.0 += Int(pixels[offset])
                    sums.1 += Int(pixels[offset + 1])
                    sums.2 += Int(pixels[offset + 2])
                    offset += 4
                }
            }
        }
        return RGBAColor(red: UInt8(sums.0 / count), green: UInt8(sums.1 / count), blue: UInt8(sums.2 / count))
    }
}
