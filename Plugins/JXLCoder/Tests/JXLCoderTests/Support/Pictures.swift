import Foundation
import WebImageCore

/// Test pictures with detail (edges, texture, gradients), so that lossy coding has work to do,
/// and the raw file formats cjxl reads for higher bit depths.
enum Pictures {
    /// A `width` x `height` picture: a diagonal gradient, a disc, stripes and a checkerboard;
    /// with `alpha`, alpha falls from 255 to 0 across the width with a fully transparent corner.
    static func detailed(width: Int, height: Int, alpha: Bool = false, seed: Int = 0) throws -> Bitmap {
        var bytes = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let index = (y * width + x) * 4
                let dx = x - width / 2, dy = y - height / 2
                let inDisc = dx * dx + dy * dy < (min(width, height) / 3) * (min(width, height) / 3)
                let stripe = ((x + seed) / 4) % 2 == 0
                let checker = ((x / 8) + (y / 8)) % 2 == 0
                bytes[index] = UInt8((x * 255) / max(1, width - 1))
                bytes[index + 1] = inDisc ? 200 : UInt8((y * 255) / max(1, height - 1))
                bytes[index + 2] = stripe ? (checker ? 30 : 220) : UInt8((x + y + seed * 17) % 256)
                if alpha {
                    bytes[index + 3] = x < width / 8 && y < height / 8 ? 0 : UInt8(255 - (x * 200) / max(1, width - 1))
                }
            }
        }
        return try Bitmap(width: width, height: height, bytes: bytes, hasAlpha: alpha)
    }

    /// A binary PPM (`P6`, maxval 65535) of `bitmap`'s RGB with 16-bit samples v * 257 + `low`
    /// (so the low byte carries information the 8-bit output must round away).
    static func ppm16(_ bitmap: Bitmap, low: UInt8 = 0x7F) -> Data {
        var data = Data("P6\n\(bitmap.width) \(bitmap.height)\n65535\n".utf8)
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width {
                let pixel = bitmap[x, y]
                for value in [pixel.red, pixel.green, pixel.blue] {
                    let sample = min(65535, Int(value) * 257 + Int(low) - 0x7F)
                    data.append(UInt8(sample >> 8))
                    data.append(UInt8(sample & 0xFF))
                }
            }
        }
        return data
    }

    /// A PFM (`PF`, 32-bit float RGB, little-endian, rows bottom to top) of `bitmap`'s RGB,
    /// as sRGB-encoded values 0...1.
    static func pfm(_ bitmap: Bitmap) -> Data {
        var data = Data("PF\n\(bitmap.width) \(bitmap.height)\n-1.0\n".utf8)
        for y in (0..<bitmap.height).reversed() {
            for x in 0..<bitmap.width {
                let pixel = bitmap[x, y]
                for value in [pixel.red, pixel.green, pixel.blue] {
                    withUnsafeBytes(of: (Float(value) / 255).bitPattern.littleEndian) { data.append(contentsOf: $0) }
                }
            }
        }
        return data
    }

    /// The largest and mean per-channel differences of two same-size bitmaps (alpha included).
    static func difference(_ a: Bitmap, _ b: Bitmap) -> (max: Int, mean: Double) {
        precondition(a.size == b.size, "\(a.size) vs \(b.size)")
        var worst = 0, total = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                let p = a[x, y], q = b[x, y]
                for (u, v) in [(p.red, q.red), (p.green, q.green), (p.blue, q.blue), (p.alpha, q.alpha)] {
                    let d = abs(Int(u) - Int(v))
                    worst = max(worst, d)
                    total += d
                }
            }
        }
        return (worst, Double(total) / Double(max(1, a.width * a.height * 4)))
    }
}
