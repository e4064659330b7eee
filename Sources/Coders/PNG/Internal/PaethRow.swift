/// The Paeth unfilter for 3- and 4-byte pixels (8-bit RGB and RGBA, the common photo formats),
/// a pixel at a time with the left and upper-left pixels kept in registers: the byte loop
/// reloads each left byte it has just stored, and that store-to-load chain was the whole cost
/// of decoding a Paeth-filtered photo (45% of an 8000x8000 thumbnail). The channels are
/// independent chains, so the processor overlaps them. Same results as the byte loop.
enum PaethRow {
    /// The Paeth predictor of the PNG specification.
    @inline(__always) static func predictor(_ a: Int, _ b: Int, _ c: Int) -> Int {
        let p = b - c, q = a - c
        let pa = abs(p), pb = abs(q), pc = abs(p + q)
        return (pa <= pb && pa <= pc) ? a : (pb <= pc ? b : c)
    }

    /// Undoes the Paeth filter of `row` in place (`row[0]` is the filter byte; `count` bytes
    /// including it) with `up` the previous unfiltered row, for `stride` 3 or 4.
    /// - Returns: `false` (and changes nothing) for another stride.
    static func unfilter(_ row: UnsafeMutablePointer<UInt8>, up: UnsafePointer<UInt8>, count: Int, stride: Int) -> Bool {
        guard stride == 3 || stride == 4 else { return false }
        let pixels = (count - 1) / stride
        var a0 = 0, a1 = 0, a2 = 0, a3 = 0
        var c0 = 0, c1 = 0, c2 = 0, c3 = 0
        var index = 1
        if stride == 4 {
            for _ in 0..<pixels {
                let b0 = Int(up[index]), b1 = Int(up[index + 1]), b2 = Int(up[index + 2]), b3 = Int(up[index + 3])
                a0 = (Int(row[index]) + predictor(a0, b0, c0)) & 0xFF
                a1 = (Int(row[index + 1]) + predictor(a1, b1, c1)) & 0xFF
                a2 = (Int(row[index + 2]) + predictor(a2, b2, c2)) & 0xFF
                a3 = (Int(row[index + 3]) + predictor(a3, b3, c3)) & 0xFF
                row[index] = UInt8(truncatingIfNeeded: a0)
                row[index + 1] = UInt8(truncatingIfNeeded: a1)
                row[index + 2] = UInt8(truncatingIfNeeded: a2)
                row[index + 3] = UInt8(truncatingIfNeeded: a3)
                c0 = b0; c1 = b1; c2 = b2; c3 = b3
                index += 4
            }
        } else {
            for _ in 0..<pixels {
                let b0 = Int(up[index]), b1 = Int(up[index + 1]), b2 = Int(up[index + 2])
                a0 = (Int(row[index]) + predictor(a0, b0, c0)) & 0xFF
                a1 = (Int(row[index + 1]) + predictor(a1, b1, c1)) & 0xFF
                a2 = (Int(row[index + 2]) + predictor(a2, b2, c2)) & 0xFF
                row[index] = UInt8(truncatingIfNeeded: a0)
                row[index + 1] = UInt8(truncatingIfNeeded: a1)
                row[index + 2] = UInt8(truncatingIfNeeded: a2)
                c0 = b0; c1 = b1; c2 = b2
                index += 3
            }
        }
        return true
    }
}
