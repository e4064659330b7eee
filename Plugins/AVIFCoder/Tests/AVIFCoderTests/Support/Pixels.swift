import Foundation
import WebImageCore
import WebImageTestSupport

/// Pixel helpers for the tests.
enum Pixels {
    /// The largest difference of any channel between two same-size bitmaps (`Int.max` for
    /// different sizes).
    static func maxDifference(_ a: Bitmap, _ b: Bitmap, includeAlpha: Bool = true) -> Int {
        ImageCoderContract.maxChannelDifference(a, b, includeAlpha: includeAlpha)
    }

    /// A bitmap whose pixels `color(x, y)` gives.
    static func make(width: Int, height: Int, hasAlpha: Bool = true, _ color: (Int, Int) -> RGBAColor) -> Bitmap {
        var bitmap = try! Bitmap(width: width, height: height, hasAlpha: hasAlpha)
        for y in 0..<height {
            for x in 0..<width { bitmap[x, y] = color(x, y) }
        }
        return bitmap
    }

    /// A smooth, asymmetric test picture (every corner a different color, so that a rotation or
    /// mirror shows), with a left-to-right alpha ramp when `alpha`.
    static func picture(width: Int, height: Int, alpha: Bool, seed: Int = 0) -> Bitmap {
        make(width: width, height: height, hasAlpha: alpha) { x, y in
            RGBAColor(
                red: UInt8(clamping: 30 + x * 200 / max(1, width - 1) + seed),
                green: UInt8(clamping: 40 + y * 180 / max(1, height - 1)),
                blue: UInt8(clamping: 220 - (x + y) * 150 / max(1, width + height - 2) - seed),
                alpha: alpha ? UInt8(clamping: 64 + x * 191 / max(1, width - 1)) : 255
            )
        }
    }

    /// A photo-like opaque picture (waves and deterministic noise), which lossy encoding at
    /// different qualities compresses to clearly different sizes.
    static func busy(width: Int, height: Int) -> Bitmap {
        var state: UInt64 = 7
        return make(width: width, height: height, hasAlpha: false) { x, y in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let noise = Int(state >> 59) - 16
            let wave = (sin(Double(x) / 5) + cos(Double(y) / 7)) * 60 + 128
            return RGBAColor(red: UInt8(clamping: Int(wave) + noise), green: UInt8(clamping: x * 255 / max(1, width - 1) + noise / 2),
                             blue: UInt8(clamping: y * 255 / max(1, height - 1) - noise), alpha: 255)
        }
    }

    /// `bitmap` turned `quarterTurns` x 90 degrees anti-clockwise, then mirrored (`mirrorMode`
    /// 0: top and bottom exchanged; 1: left and right), written out pixel by pixel from the
    /// definitions (independently of the coder's own code).
    static func oriented(_ bitmap: Bitmap, quarterTurns: Int, mirrorMode: Int?) -> Bitmap {
        var image = bitmap
        for _ in 0..<quarterTurns {
            let turned = image
            // Anti-clockwise: the top row becomes the left column, read bottom to top.
            image = make(width: turned.height, height: turned.width, hasAlpha: turned.hasAlpha) { x, y in
                turned[turned.width - 1 - y, x]
            }
        }
        let rotated = image
        switch mirrorMode {
        case 0: return make(width: rotated.width, height: rotated.height, hasAlpha: rotated.hasAlpha) { x, y in rotated[x, rotated.height - 1 - y] }
        case 1: return make(width: rotated.width, height: rotated.height, hasAlpha: rotated.hasAlpha) { x, y in rotated[rotated.width - 1 - x, y] }
        default: return rotated
        }
    }
}
