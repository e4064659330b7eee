import WebImageCore

/// Resamples a bitmap through an arbitrary coordinate map with bilinear interpolation in
/// premultiplied space. Samples outside the source are transparent, so the edges of the
/// source come out anti-aliased against transparency.
enum BilinearSampler {
    /// A new `width` x `height` bitmap (with alpha) whose pixel (x, y) is the source sampled at
    /// the affine point `origin + x * column + y * row`, in source coordinates where pixel
    /// (i, j) covers `[i, i+1) x [j, j+1)`; `origin` is where output pixel (0, 0)'s center lands.
    static func sample(
        _ bitmap: Bitmap, width: Int, height: Int,
        origin: (x: Double, y: Double), column: (x: Double, y: Double), row: (x: Double, y: Double)
    ) throws -> Bitmap {
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
                    // Pixel-index coordinates (centers at integers) of this row's first pixel.
                    let u0 = origin.x + Double(y) * row.x - 0.5
                    let v0 = origin.y + Double(y) * row.y - 0.5
                    for x in 0..<width {
                        let u = u0 + Double(x) * column.x
                        let v = v0 + Double(x) * column.y
                        guard u > -1, v > -1, u < Double(sw), v < Double(sh) else { continue }
                        let fu = u.rounded(.down)
                        let fv = v.rounded(.down)
                        let i = Int(fu)
                        let j = Int(fv)
                        let tx = Float(u - fu)
                        let ty = Float(v - fv)
                        let value: SIMD4<Float>
                        if i >= 0, j >= 0, i + 1 < sw, j + 1 < sh {
                            // Inside: no bounds checks per neighbour.
                            let base = j * stride + i * 4
                            let top = PremultipliedPixel.load(input, at: base) * (1 - tx) + PremultipliedPixel.load(input, at: base + 4) * tx
                            let bottom = PremultipliedPixel.load(input, at: base + stride) * (1 - tx) + PremultipliedPixel.load(input, at: base + stride + 4) * tx
                            value = top * (1 - ty) + bottom * ty
                        } else {
                            let top = pixel(i, j) * (1 - tx) + pixel(i + 1, j) * tx
                            let bottom = pixel(i, j + 1) * (1 - tx) + pixel(i + 1, j + 1) * tx
                            value = top * (1 - ty) + bottom * ty
                        }
                        out.storeBytes(of: PremultipliedPixel.store(value), toByteOffset: y * rowBytes + x * 4, as: SIMD4<UInt8>.self)
                    }
                }
            }
        }
        return try Bitmap(width: width, height: height, bytes: bytes, hasAlpha: true)
    }
}
