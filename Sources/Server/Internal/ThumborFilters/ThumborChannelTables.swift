import WebImageCore

/// thumbor's filters that map each of red, green and blue through a table of 256 levels, with
/// its own arithmetic: `rgb` (`_rgb.c`), `colorize` (`_colorize.c`), `curve` (`_curve.c`,
/// through ``ThumborCurve``), and `equalize`'s final mapping. Alpha is kept.
enum ThumborChannelTables {
    /// `rgb(r,g,b)`: `255 * p / 100` in C's `int` (wrapping, truncated) added, clamped.
    static func rgb(_ bitmap: Bitmap, red: Int, green: Int, blue: Int) -> Bitmap {
        let tables = [red, green, blue].map { percent in
            let delta = Int(Int32(truncatingIfNeeded: 255 &* percent) / 100)
            return (0..<256).map { ThumborCArithmetic.clamp($0 + delta) }
        }
        return apply(bitmap, red: tables[0], green: tables[1], blue: tables[2])
    }

    /// `colorize(r,g,b,fill)`: `(c * (100.0 - p) + fill * p) / 100.0` (`fill * p` in C's
    /// `int`), truncated to `int`, clamped.
    static func colorize(_ bitmap: Bitmap, red: Int, green: Int, blue: Int, fill: RGBAColor) -> Bitmap {
        let tables = zip([red, green, blue], [fill.red, fill.green, fill.blue]).map { percent, fill in
            let tint = Double(Int32(truncatingIfNeeded: Int(fill) &* percent))
            return (0..<256).map { level in
                let blended = (Double(level) * (100.0 - Double(percent)) + tint) / 100.0
                return ThumborCArithmetic.clamp(Int(ThumborCArithmetic.int32(truncating: blended)))
            }
        }
        return apply(bitmap, red: tables[0], green: tables[1], blue: tables[2])
    }

    /// `curve(all,r,g,b)`: each channel through its own curve, then through `all`'s.
    static func curve(_ bitmap: Bitmap, all: [ThumborFilter.CurvePoint], red: [ThumborFilter.CurvePoint], green: [ThumborFilter.CurvePoint], blue: [ThumborFilter.CurvePoint]) -> Bitmap {
        let common = ThumborCurve.table(all)
        let tables = [red, green, blue].map { points in ThumborCurve.table(points).map { common[Int($0)] } }
        return apply(bitmap, red: tables[0], green: tables[1], blue: tables[2])
    }

    /// Red, green and blue of every pixel through their tables (256 entries each).
    static func apply(_ bitmap: Bitmap, red: [UInt8], green: [UInt8], blue: [UInt8]) -> Bitmap {
        precondition(red.count == 256 && green.count == 256 && blue.count == 256, "tables of 256 levels")
        var output = bitmap
        output.bytes.withUnsafeMutableBufferPointer { pixels in
            red.withUnsafeBufferPointer { red in
                green.withUnsafeBufferPointer { green in
                    blue.withUnsafeBufferPointer { blue in
                        for y in 0..<bitmap.height {
                            var offset = y * bitmap.bytesPerRow
                            for _ in 0..<bitmap.width {
                                pixels[offset] = red[Int(pixels[offset])]
                                pixels[offset + 1] = green[Int(pixels[offset + 1])]
                                pixels[offset + 2] = blue[Int(pixels[offset + 2])]
                                offset += 4
                            }
                        }
                    }
                }
            }
        }
        return output
    }
}
