import WebImageCore

/// PNG row unfiltering on raw pointers, vectorised with SIMD types: Up 16 bytes at a time, Sub,
/// Average and Paeth a pixel at a time (each pixel depends on the one before it) with the
/// pixel's channels in one vector for 3- and 4-byte pixels; 1- and 2-byte pixels run a byte at
/// a time. The arithmetic is the specification's (PNG 9.2-9.4): sums modulo 256, Average's
/// floor((a + b) / 2) on 9 bits, Paeth's predictor with ties to a, then b.
///
/// `source` and `target` may be the same row, or `target` may start before `source` in the same
/// buffer (the whole-image decoder unfilters RGBA rows into their final place, a few bytes
/// before their filtered bytes): every byte is read before the byte it lands on is written.
enum PNGUnfilter {
    /// Whether ``row(type:source:previous:target:count:stride:vectorised:)`` uses its SIMD
    /// kernels by default: in optimized builds. A debug build (`DEBUG`, `-Onone`) runs generic
    /// SIMD code a lane at a time through the standard library, several times slower than the
    /// scalar loops, so there the scalar loops run (the tests run both kinds in every build).
    #if DEBUG
    static let vectorisedByDefault = false
    #else
    static let vectorisedByDefault = true
    #endif

    /// Unfilters `count` bytes of one row (without its filter-type byte).
    /// - Parameters:
    ///   - type: The row's filter type (0...4).
    ///   - source: The filtered bytes.
    ///   - previous: The previous unfiltered row of the same pass (zeros for the first row).
    ///   - target: Where the unfiltered bytes go (may be `source`; see the type's documentation).
    ///   - stride: Bytes per complete pixel, at least 1 (PNG's `bpp`).
    ///   - vectorised: Use the SIMD kernels for 3- and 4-byte pixels (see ``vectorisedByDefault``).
    /// - Throws: ``WebImageError/Code/badImageData`` for a filter type over 4.
    static func row(
        type: UInt8, source: UnsafePointer<UInt8>, previous: UnsafePointer<UInt8>,
        target: UnsafeMutablePointer<UInt8>, count: Int, stride: Int, vectorised: Bool = vectorisedByDefault
    ) throws {
        // The pixel-at-a-time SIMD kernels take 3- and 4-byte pixels; others go byte by byte.
        let pixels = vectorised && (stride == 3 || stride == 4)
        switch type {
        case 0:
            if UnsafePointer(target) != source { forwardCopy(source, target, count, vectorised) }
        case 1:
            sub(source, target, count, stride, pixels)
        case 2:
            up(source, previous, target, count, vectorised)
        case 3:
            average(source, previous, target, count, stride, pixels)
        case 4:
            paeth(source, previous, target, count, stride, pixels)
        default:
            throw WebImageError(.badImageData, "PNG row has an unknown filter type \(type)")
        }
    }

    /// A front-to-back copy (safe when `target` starts before `source` in the same buffer).
    @inline(__always)
    private static func forwardCopy(_ source: UnsafePointer<UInt8>, _ target: UnsafeMutablePointer<UInt8>, _ count: Int, _ vectorised: Bool) {
        var index = 0
        while vectorised && index + 16 <= count {
            let value = UnsafeRawPointer(source + index).loadUnaligned(as: SIMD16<UInt8>.self)
            UnsafeMutableRawPointer(target + index).storeBytes(of: value, as: SIMD16<UInt8>.self)
            index += 16
        }
        while index < count {
            target[index] = source[index]
            index += 1
        }
    }

    private static func up(_ source: UnsafePointer<UInt8>, _ previous: UnsafePointer<UInt8>, _ target: UnsafeMutablePointer<UInt8>, _ count: Int, _ vectorised: Bool) {
        var index = 0
        while vectorised && index + 16 <= count {
            let value = UnsafeRawPointer(source + index).loadUnaligned(as: SIMD16<UInt8>.self)
            let above = UnsafeRawPointer(previous + index).loadUnaligned(as: SIMD16<UInt8>.self)
            UnsafeMutableRawPointer(target + index).storeBytes(of: value &+ above, as: SIMD16<UInt8>.self)
            index += 16
        }
        while index < count {
            target[index] = source[index] &+ previous[index]
            index += 1
        }
    }

    /// Loads pixel bytes `index ..< index + stride` (stride 3 or 4) as a vector. For 3-byte
    /// pixels lane 3 holds the next byte when the row has one (read before it can be written:
    /// see the type's documentation), else zero; lanes never mix, and lane 3 is never stored.
    @inline(__always)
    private static func load(_ pointer: UnsafePointer<UInt8>, _ index: Int, _ stride: Int, _ count: Int) -> SIMD4<UInt8> {
        if stride == 4 || index + 4 <= count { return UnsafeRawPointer(pointer + index).loadUnaligned(as: SIMD4<UInt8>.self) }
        return SIMD4(pointer[index], pointer[index + 1], pointer[index + 2], 0)
    }

    /// Stores lanes `0 ..< stride` of `value` at `index`; a 3-byte pixel goes out through a
    /// general register (a 2-byte and a 1-byte store), not through a spilled vector.
    @inline(__always)
    private static func store(_ value: SIMD4<UInt8>, _ pointer: UnsafeMutablePointer<UInt8>, _ index: Int, _ stride: Int) {
        if stride == 4 {
            UnsafeMutableRawPointer(pointer + index).storeBytes(of: value, as: SIMD4<UInt8>.self)
        } else {
            let bits = unsafeBitCast(value, to: UInt32.self)
            UnsafeMutableRawPointer(pointer + index).storeBytes(of: UInt16(truncatingIfNeeded: bits), as: UInt16.self)
            pointer[index + 2] = UInt8(truncatingIfNeeded: bits >> 16)
        }
    }

    private static func sub(_ source: UnsafePointer<UInt8>, _ target: UnsafeMutablePointer<UInt8>, _ count: Int, _ stride: Int, _ pixels: Bool) {
        if pixels {
            // A constant stride in each copy of the kernel.
            if stride == 3 { subPixels(source, target, count, 3) } else { subPixels(source, target, count, 4) }
            return
        }
        for index in 0..<min(stride, count) { target[index] = source[index] }
        var index = stride
        while index < count {
            target[index] = source[index] &+ target[index - stride]
            index += 1
        }
    }

    @inline(__always)
    private static func subPixels(_ source: UnsafePointer<UInt8>, _ target: UnsafeMutablePointer<UInt8>, _ count: Int, _ stride: Int) {
        var left = SIMD4<UInt8>()
        var index = 0
        while index + stride <= count {
            left = load(source, index, stride, count) &+ left
            store(left, target, index, stride)
            index += stride
        }
    }

    private static func average(_ source: UnsafePointer<UInt8>, _ previous: UnsafePointer<UInt8>, _ target: UnsafeMutablePointer<UInt8>, _ count: Int, _ stride: Int, _ pixels: Bool) {
        if pixels {
            // A constant stride in each copy of the kernel.
            if stride == 3 { averagePixels(source, previous, target, count, 3) } else { averagePixels(source, previous, target, count, 4) }
            return
        }
        for index in 0..<min(stride, count) { target[index] = source[index] &+ (previous[index] >> 1) }
        var index = stride
        while index < count {
            target[index] = source[index] &+ UInt8((UInt16(target[index - stride]) + UInt16(previous[index])) >> 1)
            index += 1
        }
    }

    @inline(__always)
    private static func averagePixels(_ source: UnsafePointer<UInt8>, _ previous: UnsafePointer<UInt8>, _ target: UnsafeMutablePointer<UInt8>, _ count: Int, _ stride: Int) {
        var left = SIMD4<UInt8>()
        var index = 0
        while index + stride <= count {
            let above = load(previous, index, stride, count)
            // floor((a + b) / 2) without the ninth bit: (a & b) + ((a ^ b) >> 1).
            let mean = (left & above) &+ ((left ^ above) &>> 1)
            left = load(source, index, stride, count) &+ mean
            store(left, target, index, stride)
            index += stride
        }
    }

    private static func paeth(_ source: UnsafePointer<UInt8>, _ previous: UnsafePointer<UInt8>, _ target: UnsafeMutablePointer<UInt8>, _ count: Int, _ stride: Int, _ pixels: Bool) {
        if pixels {
            // A constant stride in each copy of the kernel.
            if stride == 3 { paethPixels(source, previous, target, count, 3) } else { paethPixels(source, previous, target, count, 4) }
            return
        }
        for index in 0..<min(stride, count) { target[index] = source[index] &+ previous[index] }
        var index = stride
        while index < count {
            let a = Int(target[index - stride]), b = Int(previous[index]), c = Int(previous[index - stride])
            let p = b - c, q = a - c
            let pa = abs(p), pb = abs(q), pc = abs(p + q)
            let predictor = (pa <= pb && pa <= pc) ? a : (pb <= pc ? b : c)
            target[index] = source[index] &+ UInt8(truncatingIfNeeded: predictor)
            index += 1
        }
    }

    @inline(__always)
    private static func paethPixels(_ source: UnsafePointer<UInt8>, _ previous: UnsafePointer<UInt8>, _ target: UnsafeMutablePointer<UInt8>, _ count: Int, _ stride: Int) {
        var left = SIMD4<Int16>()
        var upperLeft = SIMD4<Int16>()
        var index = 0
        while index + stride <= count {
            let above = SIMD4<Int16>(truncatingIfNeeded: load(previous, index, stride, count))
            let value = (SIMD4<Int16>(truncatingIfNeeded: load(source, index, stride, count)) &+ predictor(left, above, upperLeft)) & 0xFF
            store(SIMD4<UInt8>(truncatingIfNeeded: value), target, index, stride)
            left = value
            upperLeft = above
            index += stride
        }
    }

    /// Whether ``paethPair(_:_:previous:count:stride:)`` takes two rows of these filter types
    /// and this pixel size.
    static func pairs(_ firstType: UInt8, _ secondType: UInt8, stride: Int, vectorised: Bool = vectorisedByDefault) -> Bool {
        vectorised && firstType == 4 && secondType == 4 && (stride == 3 || stride == 4)
    }

    /// Unfilters two consecutive Paeth rows in place (`count` bytes each, without their filter
    /// bytes; `previous` is the row above `first`), a pixel of each per step: the second row's
    /// pixel needs only the first row's pixel above it and the one before, so the two rows'
    /// chains of dependent operations (each pixel waits for the one to its left) overlap, about
    /// twice the throughput of a row at a time. The same bytes as two calls of
    /// ``row(type:source:previous:target:count:stride:vectorised:)``.
    static func paethPair(_ first: UnsafeMutablePointer<UInt8>, _ second: UnsafeMutablePointer<UInt8>, previous: UnsafePointer<UInt8>, count: Int, stride: Int) {
        if stride == 3 { paethPairPixels(first, second, previous, count, 3) } else { paethPairPixels(first, second, previous, count, 4) }
    }

    @inline(__always)
    private static func paethPairPixels(_ first: UnsafeMutablePointer<UInt8>, _ second: UnsafeMutablePointer<UInt8>, _ previous: UnsafePointer<UInt8>, _ count: Int, _ stride: Int) {
        var leftA = SIMD4<Int16>(), upperLeftA = SIMD4<Int16>()
        var leftB = SIMD4<Int16>(), upperLeftB = SIMD4<Int16>()
        var index = 0
        while index + stride <= count {
            let aboveA = SIMD4<Int16>(truncatingIfNeeded: load(previous, index, stride, count))
            let filteredA = SIMD4<Int16>(truncatingIfNeeded: load(UnsafePointer(first), index, stride, count))
            let filteredB = SIMD4<Int16>(truncatingIfNeeded: load(UnsafePointer(second), index, stride, count))
            let valueA = (filteredA &+ predictor(leftA, aboveA, upperLeftA)) & 0xFF
            let valueB = (filteredB &+ predictor(leftB, valueA, upperLeftB)) & 0xFF
            store(SIMD4<UInt8>(truncatingIfNeeded: valueA), first, index, stride)
            store(SIMD4<UInt8>(truncatingIfNeeded: valueB), second, index, stride)
            leftA = valueA
            upperLeftA = aboveA
            leftB = valueB
            upperLeftB = valueA
            index += stride
        }
    }

    /// Paeth's predictor of each lane (values 0...255): a, b or c, whichever is closest to
    /// a + b - c, ties to a, then b.
    @inline(__always)
    private static func predictor(_ left: SIMD4<Int16>, _ above: SIMD4<Int16>, _ upperLeft: SIMD4<Int16>) -> SIMD4<Int16> {
        // p = a + b - c; distances |p - a| = |b - c|, |p - b| = |a - c|, |p - c| = |a + b - 2c|.
        let bMinusC = above &- upperLeft
        let aMinusC = left &- upperLeft
        let distanceA = magnitude(bMinusC)
        let distanceB = magnitude(aMinusC)
        let distanceC = magnitude(bMinusC &+ aMinusC)
        // Selection by masks from shifts: SIMD comparisons compile to a loop over lanes.
        let takeB = atMost(distanceB, distanceC)
        let takeA = atMost(distanceA, distanceB) & atMost(distanceA, distanceC)
        let bOrC = (above & takeB) | (upperLeft & ~takeB)
        return (left & takeA) | (bOrC & ~takeA)
    }

    @inline(__always)
    private static func magnitude(_ value: SIMD4<Int16>) -> SIMD4<Int16> {
        let sign = value &>> 15
        return (value ^ sign) &- sign
    }

    /// All ones in the lanes where `x <= y`, else zero (|x|, |y| < 2^14).
    @inline(__always)
    private static func atMost(_ x: SIMD4<Int16>, _ y: SIMD4<Int16>) -> SIMD4<Int16> {
        ~((y &- x) &>> 15)
    }
}
