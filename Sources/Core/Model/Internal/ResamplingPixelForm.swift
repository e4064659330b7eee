/// How ``ResamplingEngine`` turns RGBA8 rows into the floats it filters, and back.
///
/// - With alpha: scaled premultiplied floats `(r * a, g * a, b * a, 255 * a)`, and back by
///   dividing by the filtered alpha (a pixel whose alpha rounds to 0 leaves as 0, 0, 0, 0).
/// - Opaque (the source's `hasAlpha` is `false`): the colors as floats, `(r, g, b, 255)`, and back
///   with alpha 255. That is the premultiplied form divided by 255 (alpha is 255 everywhere), so
///   the filter sums are the same up to float rounding; it saves the multiply per source pixel
///   and the divide per output pixel.
///
/// Each method branches once per row, not per pixel.
struct ResamplingPixelForm {
    /// Whether the source is opaque (its alpha bytes are taken as 255).
    let opaque: Bool

    /// `count` RGBA8 pixels of `src` into `dst`.
    func enter(_ src: UnsafeRawPointer, count: Int, into dst: UnsafeMutablePointer<SIMD4<Float>>) {
        if opaque {
            for x in 0..<count { dst[x] = Self.color(Self.load(src, x)) }
        } else {
            for x in 0..<count { dst[x] = Self.premultiply(Self.load(src, x)) }
        }
    }

    /// `count` RGBA8 pixels of `src`, times `weight`, into `dst`.
    func enter(_ src: UnsafeRawPointer, count: Int, into dst: UnsafeMutablePointer<SIMD4<Float>>, weight: Float) {
        if opaque {
            for x in 0..<count { dst[x] = Self.color(Self.load(src, x)) * weight }
        } else {
            for x in 0..<count { dst[x] = Self.premultiply(Self.load(src, x)) * weight }
        }
    }

    /// `count` RGBA8 pixels of `src`, times `weight`, added to `dst`.
    func enterAdding(_ src: UnsafeRawPointer, count: Int, into dst: UnsafeMutablePointer<SIMD4<Float>>, weight: Float) {
        if opaque {
            for x in 0..<count { dst[x] += Self.color(Self.load(src, x)) * weight }
        } else {
            for x in 0..<count { dst[x] += Self.premultiply(Self.load(src, x)) * weight }
        }
    }

    /// `count` filtered pixels of `row` back to RGBA8 in `dst`, rounded to nearest (ties to
    /// even) and clamped. Adding 1.5 x 2^23 to a float in 0...255 leaves the rounded integer in
    /// the low mantissa bits, read out by a bit cast: much faster than the standard library's
    /// generic SIMD float-to-integer conversion.
    func leave(_ row: UnsafeMutablePointer<SIMD4<Float>>, count: Int, into dst: UnsafeMutableRawPointer) {
        // Lane by lane: the standard library's SIMD `clamped` is not inlined and is slow.
        @inline(__always) func clamp(_ v: Float) -> Float { min(max(v, 0), 255) }
        let magic = SIMD4<Float>(repeating: 12_582_912)
        if opaque {
            for x in 0..<count {
                let c = row[x]
                let rounded = SIMD4<Float>(clamp(c[0]), clamp(c[1]), clamp(c[2]), 255) + magic
                let pixel = SIMD4<UInt8>(truncatingIfNeeded: unsafeBitCast(rounded, to: SIMD4<UInt32>.self))
                dst.storeBytes(of: pixel, toByteOffset: x * 4, as: SIMD4<UInt8>.self)
            }
            return
        }
        for x in 0..<count {
            let v = row[x]
            let alpha = v[3]
            var pixel = SIMD4<UInt8>.zero
            if alpha >= 127.5 {  // alpha / 255 rounds to at least 1
                let c = v * (255 / alpha)
                let rounded = SIMD4<Float>(clamp(c[0]), clamp(c[1]), clamp(c[2]), clamp(alpha * (1 / 255))) + magic
                pixel = SIMD4<UInt8>(truncatingIfNeeded: unsafeBitCast(rounded, to: SIMD4<UInt32>.self))
            }
            dst.storeBytes(of: pixel, toByteOffset: x * 4, as: SIMD4<UInt8>.self)
        }
    }

    @inline(__always)
    private static func load(_ src: UnsafeRawPointer, _ x: Int) -> SIMD4<UInt8> {
        src.loadUnaligned(fromByteOffset: x * 4, as: SIMD4<UInt8>.self)
    }

    /// An opaque pixel's colors as floats (alpha's lane is carried along and not read back).
    @inline(__always)
    private static func color(_ pixel: SIMD4<UInt8>) -> SIMD4<Float> {
        SIMD4<Float>(SIMD4<Int32>(truncatingIfNeeded: pixel))
    }

    /// Straight RGBA8 to scaled premultiplied floats.
    @inline(__always)
    private static func premultiply(_ pixel: SIMD4<UInt8>) -> SIMD4<Float> {
        let v = SIMD4<Float>(SIMD4<Int32>(truncatingIfNeeded: pixel))
        let alpha = v[3]
        return SIMD4<Float>(v[0], v[1], v[2], 255) * alpha
    }
}
