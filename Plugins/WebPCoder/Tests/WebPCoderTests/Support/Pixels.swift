import Foundation
import WebImageCore
import WebImageTestSupport

/// Pixel helpers for the tests.
enum Pixels {
    /// The largest difference of any channel between two same-size bitmaps (`Int.max` for
    /// different sizes).
    static func maxDifference(_ a: Bitmap, _ b: Bitmap, includeAlpha: Bool = true) -> Int {
        guard a.size == b.size else { return Int.max }
        var worst = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                worst = max(worst, difference(a[x, y], b[x, y], includeAlpha: includeAlpha))
            }
        }
        return worst
    }

    /// The largest channel difference between two colors.
    static func difference(_ p: RGBAColor, _ q: RGBAColor, includeAlpha: Bool = true) -> Int {
        var worst = max(abs(Int(p.red) - Int(q.red)), abs(Int(p.green) - Int(q.green)), abs(Int(p.blue) - Int(q.blue)))
        if includeAlpha { worst = max(worst, abs(Int(p.alpha) - Int(q.alpha))) }
        return worst
    }

    /// FNV-1a (64 bits) of the RGBA bytes of the visible pixels, row by row (row padding skipped).
    static func hash(_ bitmap: Bitmap) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for y in 0..<bitmap.height {
            let start = y * bitmap.bytesPerRow
            for byte in bitmap.bytes[start..<start + bitmap.width * 4] {
                hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
            }
        }
        return hash
    }

    /// A bitmap whose pixels `color(x, y)` gives.
    static func make(width: Int, height: Int, hasAlpha: Bool = true, _ color: (Int, Int) -> RGBAColor) -> Bitmap {
        var bitmap = try! Bitmap(width: width, height: height, hasAlpha: hasAlpha)
        for y in 0..<height {
            for x in 0..<width { bitmap[x, y] = color(x, y) }
        }
        return bitmap
    }

    /// An opaque, photo-like bitmap (smooth waves plus deterministic noise), which lossy
    /// encoding at different qualities compresses to clearly different sizes.
    static func busy(width: Int, height: Int, seed: UInt64 = 7) -> Bitmap {
        var random = SplitMix64(seed: seed)
        return make(width: width, height: height, hasAlpha: false) { x, y in
            let wave = (sin(Double(x) / 5) + cos(Double(y) / 7)) * 60 + 128
            let noise = Int(random.next() % 48) - 24
            return RGBAColor(
                red: UInt8(clamping: Int(wave) + noise),
                green: UInt8(clamping: x * 255 / max(1, width - 1) + noise / 2),
                blue: UInt8(clamping: y * 255 / max(1, height - 1) - noise),
                alpha: 255
            )
        }
    }

    /// The four-character code at byte `offset` of `data` (`"VP8L"`, `"VP8X"`, ...).
    static func fourCC(_ data: Data, at offset: Int) -> String {
        guard data.count >= offset + 4 else { return "" }
        return String(decoding: data[data.startIndex + offset..<data.startIndex + offset + 4], as: UTF8.self)
    }
}
