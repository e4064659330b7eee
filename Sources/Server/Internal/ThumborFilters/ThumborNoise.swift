import WebImageCore

/// thumbor's `noise(amount[,seed])` filter with its own arithmetic (`thumbor/ext/filters/_noise.c`):
/// for each pixel, in order, one number `random() % amount - amount / 2` (glibc's generator,
/// ``ThumborRandom``) added to red, green and blue, clamped. Alpha is kept.
enum ThumborNoise {
    /// `bitmap` with noise drawn from `random` (which the caller then advances by one number
    /// per pixel: ``draws(amount:size:)``). An amount of 0 or less changes nothing, as thumbor's.
    static func apply(_ bitmap: Bitmap, amount: Int, random: ThumborRandom) -> Bitmap {
        guard amount > 0 else { return bitmap }
        var random = random
        var output = bitmap
        let half = amount >> 1
        output.bytes.withUnsafeMutableBufferPointer { pixels in
            for y in 0..<bitmap.height {
                var offset = y * bitmap.bytesPerRow
                for _ in 0..<bitmap.width {
                    let change = random.next() % amount - half
                    pixels[offset] = ThumborCArithmetic.clamp(Int(pixels[offset]) + change)
                    pixels[offset + 1] = ThumborCArithmetic.clamp(Int(pixels[offset + 1]) + change)
                    pixels[offset + 2] = ThumborCArithmetic.clamp(Int(pixels[offset + 2]) + change)
                    offset += 4
                }
            }
        }
        return output
    }

    /// How many numbers ``apply(_:amount:random:)`` draws for a bitmap of `size`.
    static func draws(amount: Int, size: PixelSize) -> Int {
        amount > 0 ? size.width * size.height : 0
    }

    /// The seed of the numbers of a `noise(amount)` without a seed: thumbor draws from its
    /// process's generator, whose state depends on every request before; this server seeds it
    /// from `text` (the request's URL), 1 to 2^31 - 1, so that one URL gives one result.
    static func seed(for text: String) -> UInt32 {
        let digest = SHA256.hash(text.utf8).bytes
        let value = (UInt32(digest[0]) << 24 | UInt32(digest[1]) << 16 | UInt32(digest[2]) << 8 | UInt32(digest[3])) & 0x7FFF_FFFF
        return value == 0 ? 1 : value
    }
}
