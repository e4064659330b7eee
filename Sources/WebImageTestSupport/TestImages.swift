public import WebImageCore

/// Small images made in code, for tests that need pixels.
public enum TestImages {
    /// A `width` x `height` gradient: red rises left to right, green top to bottom, blue is
    /// `seed`, alpha 255 (or a diagonal alpha ramp with `alpha: true`).
    public static func gradient(width: Int = 16, height: Int = 12, seed: UInt8 = 64, alpha: Bool = false) -> Bitmap {
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let offset = (y * width + x) * 4
                bytes[offset] = UInt8(x * 255 / max(1, width - 1))
                bytes[offset + 1] = UInt8(y * 255 / max(1, height - 1))
                bytes[offset + 2] = seed
                bytes[offset + 3] = alpha ? UInt8((x + y) * 255 / max(1, width + height - 2)) : 255
            }
        }
        // The sizes are valid by construction.
        return try! Bitmap(width: width, height: height, bytes: bytes, hasAlpha: alpha)
    }

    /// A solid bitmap.
    public static func solid(_ color: RGBAColor, width: Int = 8, height: Int = 8) -> Bitmap {
        try! Bitmap(width: width, height: height, fill: color, hasAlpha: color.alpha != 255)
    }

    /// A still image of a gradient.
    public static func still(width: Int = 16, height: Int = 12, seed: UInt8 = 64, format: ImageFormat = .undefined) -> WebImage {
        WebImage(bitmap: gradient(width: width, height: height, seed: seed), format: format)
    }

    /// An animated image with `frames` solid frames of different colors, 0.1 s each.
    public static func animated(frames: Int = 3, width: Int = 8, height: Int = 8, loopCount: Int = 0) -> WebImage {
        let list = (0..<frames).map { index in
            ImageFrame(bitmap: solid(RGBAColor(red: UInt8(truncatingIfNeeded: index * 40), green: 100, blue: 200), width: width, height: height), duration: 0.1)
        }
        return try! WebImage(frames: list, loopCount: loopCount)
    }
}
