import Foundation
import WebImageCore

/// thumbor's colour filters with its own arithmetic (`thumbor/ext/filters/_brightness.c`,
/// `_contrast.c`, `_saturation.c`; Pillow's `L` conversion for `grayscale`), on the colour channels of straight-alpha RGBA pixels
/// (alpha is kept), through a 256-entry table where the formula allows one.
enum ThumborPixelFilters {
    /// `brightness(n)`: `255 * n / 100` (truncated) added to each channel, clamped.
    static func brightness(_ bitmap: Bitmap, amount: Int) -> Bitmap {
        let delta = 255 * min(100, max(-100, amount)) / 100
        return mapped(bitmap) { clamp($0 + delta) }
    }

    /// `contrast(n)`: `k * (c - 128) / 100 + 128` with `k = (n + 100)^2 / 100`, integer
    /// arithmetic truncating towards zero as C does, clamped.
    static func contrast(_ bitmap: Bitmap, amount: Int) -> Bitmap {
        let shifted = min(100, max(-100, amount)) + 100
        let factor = shifted * shifted / 100
        return mapped(bitmap) { clamp(factor * ($0 - 128) / 100 + 128) }
    }

    /// `saturation(s)`: each channel `c` becomes `p + (c - p) * s` with
    /// `p = sqrt(0.299 r^2 + 0.587 g^2 + 0.114 b^2)`, truncated and clamped.
    static func saturation(_ bitmap: Bitmap, factor: Double) -> Bitmap {
        var output = bitmap
        let change = Float(factor)
        output.bytes.withUnsafeMutableBufferPointer { pixels in
            for y in 0..<bitmap.height {
                var offset = y * bitmap.bytesPerRow
                for _ in 0..<bitmap.width {
                    let r = Float(pixels[offset]), g = Float(pixels[offset + 1]), b = Float(pixels[offset + 2])
                    let p = (r * r * 0.299 + g * g * 0.587 + b * b * 0.114).squareRoot()
                    pixels[offset] = clamp(truncating: p + (r - p) * change)
                    pixels[offset + 1] = clamp(truncating: p + (g - p) * change)
                    pixels[offset + 2] = clamp(truncating: p + (b - p) * change)
                    offset += 4
                }
            }
        }
        return output
    }

    /// `grayscale()`: thumbor's PIL engine converts to `L` (or `LA`), Pillow's ITU-R 601-2 luma
    /// in 16-bit fixed point: `(19595 r + 38470 g + 7471 b + 32768) >> 16`, alpha kept.
    static func grayscale(_ bitmap: Bitmap) -> Bitmap {
        var output = bitmap
        output.bytes.withUnsafeMutableBufferPointer { pixels in
            for y in 0..<bitmap.height {
                var offset = y * bitmap.bytesPerRow
                for _ in 0..<bitmap.width {
                    let luma = (19595 * Int(pixels[offset]) + 38470 * Int(pixels[offset + 1]) + 7471 * Int(pixels[offset + 2]) + 32768) >> 16
                    let value = UInt8(min(255, luma))
                    pixels[offset] = value
                    pixels[offset + 1] = value
                    pixels[offset + 2] = value
                    offset += 4
                }
            }
        }
        return output
    }

    /// Transparent pixels blended onto `color` (thumbor's `background_color`); the result is
    /// opaque when the colour is.
    static func background(_ bitmap: Bitmap, color: RGBAColor) -> Bitmap {
        guard bitmap.hasAlpha else { return bitmap }
        var output = bitmap
        output.hasAlpha = color.alpha < 255
        output.bytes.withUnsafeMutableBufferPointer { pixels in
            for y in 0..<bitmap.height {
                var offset = y * bitmap.bytesPerRow
                for _ in 0..<bitmap.width {
                    BitmapCompositing.blend(over: color, pixels: pixels, at: offset)
                    offset += 4
                }
            }
        }
        return output
    }

    /// The colour channels of every pixel through `transform` (alpha kept): one 256-level
    /// table for red, green and blue (``ThumborChannelTables/apply(_:red:green:blue:)``).
    private static func mapped(_ bitmap: Bitmap, _ transform: (Int) -> UInt8) -> Bitmap {
        let table = (0..<256).map(transform)
        return ThumborChannelTables.apply(bitmap, red: table, green: table, blue: table)
    }

    private static func clamp(_ value: Int) -> UInt8 {
        ThumborCArithmetic.clamp(value)
    }

    private static func clamp(truncating value: Float) -> UInt8 {
        guard value.isFinite else { return value > 0 ? 255 : 0 }
        return UInt8(min(255, max(0, Int(value))))
    }
}
