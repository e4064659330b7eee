import Foundation
public import WebImageCore

/// Pixel helpers for coder tests: channel differences, bitmap comparisons and a few synthetic
/// bitmaps (shared by the HEIF, SVG and PDF plug-ins' tests; a test target may still declare a
/// `Pixels` of its own, which then shadows this one).
public enum Pixels {
    /// The largest channel difference between two colors.
    public static func difference(_ p: RGBAColor, _ q: RGBAColor, includeAlpha: Bool = true) -> Int {
        var worst = max(abs(Int(p.red) - Int(q.red)), abs(Int(p.green) - Int(q.green)), abs(Int(p.blue) - Int(q.blue)))
        if includeAlpha { worst = max(worst, abs(Int(p.alpha) - Int(q.alpha))) }
        return worst
    }

    /// The largest and the mean channel difference of two same-size bitmaps
    /// (`(Int.max, .infinity)` for different sizes).
    public static func compare(_ a: Bitmap, _ b: Bitmap, includeAlpha: Bool = true) -> (max: Int, mean: Double) {
        guard a.size == b.size else { return (Int.max, .infinity) }
        var worst = 0, total = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                let d = difference(a[x, y], b[x, y], includeAlpha: includeAlpha)
                worst = max(worst, d)
                total += d
            }
        }
        return (worst, Double(total) / Double(max(1, a.width * a.height)))
    }

    /// A bitmap whose pixels `color(x, y)` gives.
    public static func make(width: Int, height: Int, hasAlpha: Bool = true, _ color: (Int, Int) -> RGBAColor) -> Bitmap {
        var bitmap = try! Bitmap(width: width, height: height, hasAlpha: hasAlpha)
        for y in 0..<height {
            for x in 0..<width { bitmap[x, y] = color(x, y) }
        }
        return bitmap
    }

    /// A smooth opaque photo-like bitmap (waves and ramps; lossy codecs keep it close).
    public static func smooth(width: Int, height: Int) -> Bitmap {
        make(width: width, height: height, hasAlpha: false) { x, y in
            let wave = (sin(Double(x) / 9) + cos(Double(y) / 11)) * 50 + 128
            return RGBAColor(
                red: UInt8(clamping: Int(wave)),
                green: UInt8(clamping: x * 255 / max(1, width - 1)),
                blue: UInt8(clamping: y * 255 / max(1, height - 1)),
                alpha: 255
            )
        }
    }

    /// Four flat quadrants (red, green / blue, white from the top left), to check rotation and
    /// mirroring: each quadrant survives lossy coding with its color.
    public static func quadrants(width: Int, height: Int) -> Bitmap {
        make(width: width, height: height, hasAlpha: false) { x, y in
            switch (x < width / 2, y < height / 2) {
            case (true, true): RGBAColor(red: 255, green: 0, blue: 0, alpha: 255)
            case (false, true): RGBAColor(red: 0, green: 255, blue: 0, alpha: 255)
            case (true, false): RGBAColor(red: 0, green: 0, blue: 255, alpha: 255)
            case (false, false): RGBAColor(red: 255, green: 255, blue: 255, alpha: 255)
            }
        }
    }

    /// Whether `color` is within `tolerance` of `expected` on every channel.
    public static func near(_ color: RGBAColor, _ expected: RGBAColor, tolerance: Int = 24) -> Bool {
        difference(color, expected) <= tolerance
    }
}
