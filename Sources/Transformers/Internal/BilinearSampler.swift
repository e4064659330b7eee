import WebImageCore

/// Resamples a bitmap through an arbitrary coordinate map with bilinear interpolation in
/// premultiplied space. Samples outside the source are transparent, so the edges of the
/// source come out anti-aliased against transparency.
enum BilinearSampler {
    /// A new `width` x `height` bitmap (with alpha) whose pixel (x, y) is the source sampled at
    /// `map(x, y)`, a point in source coordinates where pixel (i, j) covers `[i, i+1) x [j, j+1)`.
    static func sample(_ bitmap: Bitmap, width: Int, height: Int, _ map: (Double, Double) -> (Double, Double)) throws -> Bitmap {
        let sw = bitmap.width
        let sh = bitmap.height
        let stride = bitmap.bytesPerRow
        let rowBytes = width * 4
        var bytes = [UInt8](repeating: 0, count: rowBytes * height)
        bytes.withUnsafeMutableBytes { dst in
            bitmap.bytes.withUnsafeBytes { src in
                let input = src.baseAddress!
                let out = dst.baseAddress!
                @inline(__always)
                func pixel(_ i: Int, _ j: Int) -> SIMD4<Float> {
                    guard i >= 0, i < sw, j >= 0, j < sh else { return .zero }
                    return PremultipliedPixel.load(input, at: j * stride + i * 4)
                }
                for y in 0..<height {
                    for x in 0..<width {
                        let (sx, sy) = map(Double(x), Double(y))
                        let u = sx - 0.5
                        let v = sy - 0.5
                        guard u > -1, v > -1, u < Double(sw), v < Double(sh) else { continue }
                        let fu = u.rounded(.down)
                        let fv = v.rounded(.down)
                        let i = Int(fu)
                        let j = Int(fv)
                        let tx = Float(u - fu)
                        let ty = Float(v - fv)
                        let top = pixel(i, j) * (1 - tx) + pixel(i + 1, j) * tx
                        let bottom = pixel(i, j + 1) * (1 - tx) + pixel(i + 1, j + 1) * tx
                        let value = top * (1 - ty) + bottom * ty
                        out.storeBytes(of: PremultipliedPixel.store(value), toByteOffset: y * rowBytes + x * 4, as: SIMD4<UInt8>.self)
                    }
                }
            }
        }
        return try Bitmap(width: width, height: height, bytes: bytes, hasAlpha: true)
    }
}
