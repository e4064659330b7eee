import WebImageCore

/// Pixels as `SIMD4<Float>` premultiplied by alpha and scaled by 255:
/// `(r * a, g * a, b * a, 255 * a)` for straight RGBA8 `(r, g, b, a)` (the convention of
/// Core's resampler). Every straight color is exactly representable, so even a pixel of
/// alpha 1 keeps its color through a filter, and transparent neighbours add nothing (no halo).
enum PremultipliedPixel {
    /// Straight RGBA8 to scaled premultiplied floats.
    @inline(__always)
    static func load(_ pixel: SIMD4<UInt8>) -> SIMD4<Float> {
        let v = SIMD4<Float>(SIMD4<Int32>(truncatingIfNeeded: pixel))
        return SIMD4<Float>(v[0], v[1], v[2], 255) * v[3]
    }

    /// The pixel at byte offset `offset` of `base`, premultiplied.
    @inline(__always)
    static func load(_ base: UnsafeRawPointer, at offset: Int) -> SIMD4<Float> {
        load(base.loadUnaligned(fromByteOffset: offset, as: SIMD4<UInt8>.self))
    }

    /// Scaled premultiplied floats back to straight RGBA8, rounded to nearest and clamped.
    /// A pixel whose alpha rounds to 0 becomes `(0, 0, 0, 0)`.
    @inline(__always)
    static func store(_ v: SIMD4<Float>) -> SIMD4<UInt8> {
        let alpha = v[3]
        guard alpha >= 127.5 else { return .zero }
        var c = v * (255 / alpha)
        c[3] = alpha * (1 / 255)
        return roundToBytes(c)
    }

    /// `values` clamped to 0...255 and rounded to the nearest integer (ties to even).
    ///
    /// Adding 1.5 x 2^23 to a float in 0...255 leaves the rounded integer in the low mantissa
    /// bits, which a bit cast reads out: much faster than the generic SIMD float-to-integer
    /// conversion of the standard library.
    @inline(__always)
    static func roundToBytes(_ values: SIMD4<Float>) -> SIMD4<UInt8> {
        // Masked selects compile to vector compares; the standard library's `clamped` and
        // `pointwiseMin` are not inlined and cost more than the whole rest of the conversion.
        // NaN stays NaN, whose bits end in zeros: it gives 0, as before.
        let low = values.replacing(with: 0, where: values .< 0)
        let clamped = low.replacing(with: 255, where: low .> 255) + SIMD4(repeating: 12_582_912)
        return SIMD4<UInt8>(truncatingIfNeeded: unsafeBitCast(clamped, to: SIMD4<UInt32>.self))
    }

    /// Writes `count` pixels of `row` to `dst` as straight RGBA8.
    static func storeRow(_ row: UnsafePointer<SIMD4<Float>>, count: Int, into dst: UnsafeMutableRawPointer) {
        for x in 0..<count {
            dst.storeBytes(of: store(row[x]), toByteOffset: x * 4, as: SIMD4<UInt8>.self)
        }
    }

    /// Reads `count` pixels from `src` into `row`, premultiplied.
    static func loadRow(_ src: UnsafeRawPointer, count: Int, into row: UnsafeMutablePointer<SIMD4<Float>>) {
        for x in 0..<count {
            row[x] = load(src, at: x * 4)
        }
    }
}
