/// Converts between straight RGBA8 and the box blur's premultiplied pixels.
///
/// Premultiplied as in ``PremultipliedPixel``: `(r * a, g * a, b * a, 255 * a)`, every value an
/// integer of at most 65025, so the blur can sum them exactly in `Int32` lanes. The blurred sums
/// carry a known gain (the product of the box widths, less the bits shifted out); colors are
/// divided by alpha, which carries the same gain, and alpha is divided by the gain.
struct BlurPixelConverter {
    /// `table[a] = (a, a, a, 255)`: a straight pixel `(r, g, b, a)` times it is premultiplied.
    /// Read from memory, the multiplier keeps the conversion in vector registers (built in
    /// place, the optimizer splits the pixel into scalar lanes).
    private let table: UnsafeMutablePointer<SIMD4<Float>>
    /// From a summed alpha to output alpha: `1 / (255 gain)`.
    let alphaScale: Float
    /// The summed alpha below which the output alpha rounds to 0: `127.5 gain`.
    let threshold: Float

    /// - Parameter gain: What the blur multiplied the premultiplied values by.
    init(gain: Double) {
        table = .allocate(capacity: 256)
        for a in 0..<256 {
            table[a] = SIMD4(Float(a), Float(a), Float(a), 255)
        }
        alphaScale = Float(1 / (255 * gain))
        threshold = Float(127.5 * gain)
    }

    func deallocate() {
        table.deallocate()
    }

    /// `x + 1.5 x 2^23` holds `round(x)` (ties to even) in its low mantissa bits, for `|x| < 2^22`.
    @inline(__always)
    static func rounded(_ values: SIMD4<Float>) -> SIMD4<Int32> {
        unsafeBitCast(values + SIMD4(repeating: 12_582_912), to: SIMD4<Int32>.self) &- 0x4B40_0000
    }

    /// The straight RGBA8 pixel at byte `offset` of `base`, premultiplied (exact integers).
    @inline(__always)
    func load(_ base: UnsafeRawPointer, at offset: Int) -> SIMD4<Int32> {
        let pixel = base.loadUnaligned(fromByteOffset: offset, as: SIMD4<UInt8>.self)
        return Self.rounded(SIMD4<Float>(SIMD4<Int32>(truncatingIfNeeded: pixel)) * table[Int(pixel[3])])
    }

    /// Premultiplies `count` pixels from `source` into `row`.
    func loadRow(_ source: UnsafeRawPointer, count: Int, into row: UnsafeMutablePointer<SIMD4<Int32>>) {
        for x in 0..<count {
            row[x] = load(source, at: x &* 4)
        }
    }

    /// The straight pixel for a blurred sum; `(0, 0, 0, 0)` when its alpha rounds to 0.
    @inline(__always)
    func pixel(_ sum: SIMD4<Int32>) -> SIMD4<UInt8> {
        let value = SIMD4<Float>(sum)
        let alpha = value[3]
        guard alpha >= threshold else { return .zero }
        let s = 255 / alpha
        return PremultipliedPixel.roundToBytes(value * SIMD4(s, s, s, alphaScale))
    }

    /// Writes four blurred sums to `target` as straight RGBA8, with one vector division for the
    /// four.
    ///
    /// No clamping: the sums are exact integers (and each rescaling rounds every channel the
    /// same monotonic way), so every color sum lies in `0...alpha sum` and `255 color / alpha`
    /// in `0...255` up to a float rounding far below one half.
    @inline(__always)
    func store(_ s0: SIMD4<Int32>, _ s1: SIMD4<Int32>, _ s2: SIMD4<Int32>, _ s3: SIMD4<Int32>, to target: UnsafeMutableRawPointer) {
        let v0 = SIMD4<Float>(s0), v1 = SIMD4<Float>(s1), v2 = SIMD4<Float>(s2), v3 = SIMD4<Float>(s3)
        let r = SIMD4(v0[0], v1[0], v2[0], v3[0])
        let g = SIMD4(v0[1], v1[1], v2[1], v3[1])
        let b = SIMD4(v0[2], v1[2], v2[2], v3[2])
        let a = SIMD4(v0[3], v1[3], v2[3], v3[3])
        let transparent = a .< threshold
        let scale = (SIMD4<Float>(repeating: 255) / a).replacing(with: 0, where: transparent)
        @inline(__always) func bytes(_ x: SIMD4<Float>) -> SIMD4<UInt32> {
            unsafeBitCast(x + SIMD4(repeating: 12_582_912), to: SIMD4<UInt32>.self) & 0xFF
        }
        let alpha = bytes(a * alphaScale).replacing(with: 0, where: transparent)
        let packed = bytes(r * scale) | (bytes(g * scale) &<< 8) | (bytes(b * scale) &<< 16) | (alpha &<< 24)
        target.storeBytes(of: packed, as: SIMD4<UInt32>.self)
    }
}
