import WebImageCore

/// thumbor's `round_corner(a|b,r,g,b[,transparent])` with its own arithmetic
/// (`thumbor/ext/filters/_round_corner.c`, anti-aliasing on as its filter calls it), so that
/// the corners match to the bit:
/// - the pixels outside the ellipse get the colour's red, green and blue; their alpha is kept
///   (a source with alpha keeps its transparency under the corners), or with `transparent`
///   set to 0;
/// - the anti-aliased edge pixels are a mix of the row's first inside pixel and the colour,
///   or with `transparent` that pixel darkened towards black, their alpha kept;
/// - the right-hand corners are painted one column to the right of the mirror image of the
///   left ones (its `width - x`), which on the last row's edge would fall outside the buffer:
///   those writes are skipped and such reads give 0.
/// The C code works on Pillow's RGB or RGBA bytes; the byte offsets it computes in `float`
/// are computed the same way here, on the same layout (3 bytes a pixel without alpha).
enum ThumborRoundCorner {
    /// `bitmap` (straight alpha) with its corners rounded as thumbor rounds them.
    static func apply(_ bitmap: Bitmap, horizontal: Int, vertical: Int, color: RGBAColor, transparent: Bool) -> Bitmap {
        let width = bitmap.width, height = bitmap.height
        let alpha = bitmap.hasAlpha || transparent
        // A radius of 0 paints nothing in thumbor's code (its divisions give NaN, its loops stop at once).
        guard min(horizontal, width / 2) > 0, min(vertical, height / 2) > 0 else {
            var output = bitmap
            output.hasAlpha = alpha
            return output
        }
        var buffer = Layout(bitmap: bitmap, bytesPerPixel: alpha ? 4 : 3)
        buffer.round(width: width, height: height, horizontal: horizontal, vertical: vertical,
                     color: (color.red, color.green, color.blue), transparent: transparent)
        var output = bitmap
        output.hasAlpha = alpha
        buffer.write(to: &output)
        return output
    }

    /// Pillow's `tobytes()` of the image in RGB or RGBA, with C's unchecked reads and writes
    /// made safe (outside the buffer: reads 0, writes dropped).
    private struct Layout {
        var bytes: [UInt8]
        let bytesPerPixel: Int

        init(bitmap: Bitmap, bytesPerPixel: Int) {
            self.bytesPerPixel = bytesPerPixel
            var bytes = [UInt8](repeating: 0, count: bitmap.width * bitmap.height * bytesPerPixel)
            bitmap.bytes.withUnsafeBufferPointer { source in
                var target = 0
                for y in 0..<bitmap.height {
                    var offset = y * bitmap.bytesPerRow
                    for _ in 0..<bitmap.width {
                        for channel in 0..<bytesPerPixel { bytes[target + channel] = source[offset + channel] }
                        target += bytesPerPixel
                        offset += 4
                    }
                }
            }
            self.bytes = bytes
        }

        func write(to bitmap: inout Bitmap) {
            let width = bitmap.width, height = bitmap.height, row = bitmap.bytesPerRow, step = bytesPerPixel
            bytes.withUnsafeBufferPointer { source in
                bitmap.bytes.withUnsafeMutableBufferPointer { target in
                    var index = 0
                    for y in 0..<height {
                        var offset = y * row
                        for _ in 0..<width {
                            for channel in 0..<step { target[offset + channel] = source[index + channel] }
                            if step == 3 { target[offset + 3] = 255 }
                            index += step
                            offset += 4
                        }
                    }
                }
            }
        }

        func read(_ offset: Int) -> UInt8 {
            offset >= 0 && offset < bytes.count ? bytes[offset] : 0
        }

        mutating func set(_ offset: Int, _ value: UInt8) {
            if offset >= 0 && offset < bytes.count { bytes[offset] = value }
        }

        /// C's `int` assignment of a `float` byte offset: `num_bytes * (float)index`, truncated.
        func offset(_ index: Float) -> Int {
            Int(ThumborCArithmetic.int32(truncating: Double(Float(bytesPerPixel) * index)))
        }

        /// `ptr[offset + channel] = (color[channel] * (1 - aa)) + (paint[channel] * aa)`
        /// (without the paint with `transparent`), for red, green and blue.
        mutating func mix(at offset: Int, from color: Int, paint: (UInt8, UInt8, UInt8), aa: Float, transparent: Bool) {
            let paints = [paint.0, paint.1, paint.2]
            for channel in 0..<3 {
                let kept = Float(read(color + channel)) * (1 - aa)
                let value = transparent ? kept : kept + Float(paints[channel]) * aa
                set(offset + channel, ThumborCArithmetic.byte(truncating: Double(value)))
            }
        }

        // swiftlint:disable:next function_body_length
        mutating func round(width: Int, height: Int, horizontal: Int, vertical: Int,
                            color paint: (UInt8, UInt8, UInt8), transparent: Bool) {
            let step = bytesPerPixel
            let aaAmount: Float = 0.75
            let aRadius = min(horizontal, width / 2), bRadius = min(vertical, height / 2)
            let aRad = Float(aRadius), bRad = Float(bRadius)
            func int(_ value: Float) -> Int { Int(ThumborCArithmetic.int32(truncating: Double(value))) }
            func int(_ value: Double) -> Int { Int(ThumborCArithmetic.int32(truncating: value)) }

            // The rows: the pixels left of the ellipse, then the edge pixels along x.
            var y = 0
            while Float(y) <= bRad {
                let x = Float(-(Double(aRad) * Double(Float(bRad * bRad) - Float(y * y)).squareRoot()) / Double(bRad))
                let yTop = int(bRad - Float(y))
                let yBottom = int(Float(height) - bRad) + y - 1
                let endX = int(x + aRad)
                var currX = 0
                while currX < endX {
                    let topLeft = step * (yTop * width + currX), bottomLeft = step * (yBottom * width + currX)
                    let topRight = step * (yTop * width + (width - currX)), bottomRight = step * (yBottom * width + (width - currX))
                    var targets = [topLeft, bottomLeft]
                    if currX > 0 { targets += [topRight, bottomRight] }
                    for target in targets {
                        set(target, paint.0); set(target + 1, paint.1); set(target + 2, paint.2)
                        if transparent { set(target + 3, 0) }
                    }
                    currX += 1
                }

                let colors = [step * (yTop * width + endX), step * (yBottom * width + endX),
                              step * (yTop * width + (width - endX)), step * (yBottom * width + (width - endX))]
                var pixelCountX = 0
                var aaX = int(x - 1)
                while Float(aaX) >= -aRad {
                    let root = Double(aRad * aRad - Float(aaX * aaX)).squareRoot()
                    let aaY = int(Float(Double(bRad) * root / Double(aRad) + 1))
                    if aaY != y { break }
                    pixelCountX += 1
                    aaX -= 1
                }
                aaX = int(x - Float(pixelCountX))
                if Float(aaX) < -aRad { aaX += 1 }
                var index = 1
                while Float(aaX) < x {
                    let adjusted = int(Float(aaX) + aRad)
                    let targets = [step * (yTop * width + adjusted), step * (yBottom * width + adjusted),
                                   step * (yTop * width + (width - adjusted)), step * (yBottom * width + (width - adjusted))]
                    let aa = 1 - (Float(index) / Float(pixelCountX)) * aaAmount
                    for corner in 0..<4 {
                        mix(at: targets[corner], from: colors[corner], paint: paint, aa: aa, transparent: transparent)
                    }
                    aaX += 1
                    index += 1
                }
                y += 1
            }

            // The columns: the edge pixels along y.
            var x: Float = 0
            while x >= -aRad {
                let yEdge = Float(Double(bRad) * Double(aRad * aRad - x * x).squareRoot() / Double(aRad))
                var pixelCountY = 0
                var aaY = int(yEdge + 1)
                while Float(aaY) < bRad {
                    let root = Double(bRad * bRad - Float(aaY * aaY)).squareRoot()
                    let aaX = int(Float(-(Double(aRad) * root / Double(bRad)) - 1))
                    if aaX != int(x) { break }
                    pixelCountY += 1
                    aaY += 1
                }
                let endX = int(x + aRad)
                let yTop = int(bRad - yEdge)
                let yBottom = int(Float(height) - bRad + yEdge - 1)
                let colors = [step * (yTop * width + endX), step * (yBottom * width + endX),
                              step * (yTop * width + (width - endX)), step * (yBottom * width + (width - endX))]
                let leftX = int(x + aRad)
                let rightX = int(Float(width) - aRad - x)
                var index = 1
                aaY = int(yEdge + Float(pixelCountY))
                if Float(aaY) > bRad { aaY -= 1 }
                while Float(aaY) > yEdge {
                    let top = (bRad - Float(aaY)) * Float(width), bottom = (Float(height) - bRad + Float(aaY) - 1) * Float(width)
                    let targets = [offset(top + Float(leftX)), offset(bottom + Float(leftX)),
                                   offset(top + Float(rightX)), offset(bottom + Float(rightX))]
                    let aa = 1 - (Float(index) / Float(pixelCountY)) * aaAmount
                    for corner in 0..<4 {
                        mix(at: targets[corner], from: colors[corner], paint: paint, aa: aa, transparent: transparent)
                    }
                    aaY -= 1
                    index += 1
                }
                x -= 1
            }
        }
    }
}
