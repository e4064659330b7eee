import Foundation
import WebImageCore

/// Independent, slow, obviously-correct reference computations for the tests: everything in
/// `Double`, written from the textbook definitions, sharing no code with the module under test.
enum Reference {
    /// A straight RGBA pixel in 0...255 doubles.
    typealias Pixel = (r: Double, g: Double, b: Double, a: Double)

    /// The kernels from their definitions.
    static func kernel(_ filter: ResamplingFilter, _ x: Double) -> Double {
        let t = abs(x)
        switch filter {
        case .nearest, .box:
            return x > -0.5 && x <= 0.5 ? 1 : 0
        case .bilinear:
            return max(0, 1 - t)
        case .bicubic:
            // Keys (1981) with a = -0.5.
            if t < 1 { return 1.5 * t * t * t - 2.5 * t * t + 1 }
            if t < 2 { return -0.5 * t * t * t + 2.5 * t * t - 4 * t + 2 }
            return 0
        case .lanczos3:
            if t == 0 { return 1 }
            if t >= 3 { return 0 }
            let sinc = { (v: Double) in sin(Double.pi * v) / (Double.pi * v) }
            return sinc(t) * sinc(t / 3)
        }
    }

    static func support(_ filter: ResamplingFilter) -> Double {
        switch filter {
        case .nearest, .box: 0.5
        case .bilinear: 1
        case .bicubic: 2
        case .lanczos3: 3
        }
    }

    /// For output index `i`: (source index, weight) pairs, clamp-to-edge, normalized.
    static func taps(input: Int, output: Int, index i: Int, filter: ResamplingFilter) -> [(Int, Double)] {
        let scale = Double(input) / Double(output)
        let stretch = max(1, scale)
        let center = (Double(i) + 0.5) * scale
        let reach = support(filter) * stretch
        var weights: [Int: Double] = [:]
        var j = Int((center - reach).rounded(.down)) - 1
        while Double(j) <= center + reach + 1 {
            let w = kernel(filter, (Double(j) + 0.5 - center) / stretch)
            if w != 0 { weights[min(max(j, 0), input - 1), default: 0] += w }
            j += 1
        }
        let total = weights.values.reduce(0, +)
        return weights.map { ($0.key, $0.value / total) }
    }

    /// Resampling by the 2-D definition: each output pixel is the weighted sum of premultiplied
    /// source pixels, with weights w(x) w(y).
    static func resample(_ bitmap: Bitmap, to size: PixelSize, filter: ResamplingFilter) -> [[Pixel]] {
        (0..<size.height).map { y in
            let ys = taps(input: bitmap.height, output: size.height, index: y, filter: filter)
            return (0..<size.width).map { x in
                let xs = taps(input: bitmap.width, output: size.width, index: x, filter: filter)
                var r = 0.0, g = 0.0, b = 0.0, a = 0.0
                for (sy, wy) in ys {
                    for (sx, wx) in xs {
                        let p = bitmap[sx, sy]
                        let w = wx * wy
                        let alpha = Double(p.alpha)
                        r += w * Double(p.red) * alpha
                        g += w * Double(p.green) * alpha
                        b += w * Double(p.blue) * alpha
                        a += w * alpha
                    }
                }
                return unpremultiplied(r, g, b, a)
            }
        }
    }

    /// Premultiplied sums (color x alpha, alpha) back to a straight pixel.
    static func unpremultiplied(_ r: Double, _ g: Double, _ b: Double, _ a: Double) -> Pixel {
        guard a > 0.5 else { return (0, 0, 0, 0) }
        let clamp = { (v: Double) in min(max(v, 0), 255) }
        return (clamp(r / a), clamp(g / a), clamp(b / a), clamp(a))
    }

    /// The normalized sampled Gaussian of standard deviation `sigma`, taps -reach...reach.
    static func gaussian(sigma: Double, reach: Int) -> [Double] {
        let raw = (-reach...reach).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
        let total = raw.reduce(0, +)
        return raw.map { $0 / total }
    }

    /// The largest channel difference between `bitmap` and expected pixels.
    static func maxDifference(_ bitmap: Bitmap, _ expected: [[Pixel]]) -> Double {
        var worst = 0.0
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width {
                let p = bitmap[x, y]
                let e = expected[y][x]
                worst = max(worst, abs(Double(p.red) - e.r), abs(Double(p.green) - e.g), abs(Double(p.blue) - e.b), abs(Double(p.alpha) - e.a))
            }
        }
        return worst
    }
}

/// Test images made here.
enum Pictures {
    /// A deterministic pseudo-random image (xorshift), with alpha when asked.
    static func noise(width: Int, height: Int, seed: UInt64 = 0x9E37_79B9_7F4A_7C15, alpha: Bool = true) -> Bitmap {
        var state = seed
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        for index in bytes.indices {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            bytes[index] = UInt8(truncatingIfNeeded: state >> 24)
            if !alpha, index % 4 == 3 { bytes[index] = 255 }
        }
        return try! Bitmap(width: width, height: height, bytes: bytes, hasAlpha: alpha)
    }

    /// A checkerboard of `cell`-pixel squares, black and white, starting black at the top left.
    static func checkerboard(width: Int, height: Int, cell: Int = 1) -> Bitmap {
        var bitmap = try! Bitmap(width: width, height: height, fill: .black, hasAlpha: false)
        for y in 0..<height {
            for x in 0..<width where (x / cell + y / cell) % 2 == 1 {
                bitmap[x, y] = .white
            }
        }
        return bitmap
    }

    /// Opaque red on the left `split` columns, fully transparent WHITE on the right: a naive
    /// (straight-alpha) filter pulls white into the red edge, a premultiplied one does not.
    static func redNextToTransparentWhite(width: Int = 16, height: Int = 8, split: Int = 8) -> Bitmap {
        var bitmap = try! Bitmap(width: width, height: height, fill: RGBAColor(red: 255, green: 255, blue: 255, alpha: 0))
        for y in 0..<height {
            for x in 0..<split { bitmap[x, y] = RGBAColor(red: 255, green: 0, blue: 0) }
        }
        return bitmap
    }

    /// The same pixels in a bitmap whose rows are padded with `extra` junk bytes.
    static func padded(_ bitmap: Bitmap, extra: Int = 12) -> Bitmap {
        let row = bitmap.width * 4 + extra
        var bytes = [UInt8](repeating: 0xEE, count: row * bitmap.height)
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width * 4 {
                bytes[y * row + x] = bitmap.bytes[y * bitmap.bytesPerRow + x]
            }
        }
        return try! Bitmap(width: bitmap.width, height: bitmap.height, bytesPerRow: row, bytes: bytes, hasAlpha: bitmap.hasAlpha)
    }

    /// Every pixel, row by row.
    static func pixels(_ bitmap: Bitmap) -> [RGBAColor] {
        (0..<bitmap.height).flatMap { y in (0..<bitmap.width).map { x in bitmap[x, y] } }
    }
}
