import WebImageCore

/// The checksum the committed references use: FNV-1a 64 over the RGBA8 bytes (rows packed), with
/// the color of fully transparent pixels taken as 0 (decoders disagree on it; nothing shows it).
enum PixelHash {
    static func of(_ bitmap: Bitmap) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        bitmap.bytes.withUnsafeBufferPointer { bytes in
            for y in 0..<bitmap.height {
                var index = y * bitmap.bytesPerRow
                let end = index + bitmap.width * 4
                while index < end {
                    let transparent = bytes[index + 3] == 0
                    for channel in 0..<4 {
                        let byte = transparent && channel < 3 ? 0 : bytes[index + channel]
                        hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
                    }
                    index += 4
                }
            }
        }
        return hash
    }

    /// The largest per-channel difference between two bitmaps of the same size.
    static func maxDifference(_ a: Bitmap, _ b: Bitmap) -> Int {
        precondition(a.size == b.size, "sizes differ: \(a.size) vs \(b.size)")
        var worst = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                let p = a[x, y], q = b[x, y]
                worst = max(worst, abs(Int(p.red) - Int(q.red)), abs(Int(p.green) - Int(q.green)),
                            abs(Int(p.blue) - Int(q.blue)), abs(Int(p.alpha) - Int(q.alpha)))
            }
        }
        return worst
    }
}
