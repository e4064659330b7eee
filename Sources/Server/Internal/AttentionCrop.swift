import Foundation
import WebImageCore
import WebImageTransformers

/// Where a crop window goes to keep what draws the eye: the method of libvips' `attention`
/// smart crop (itself from smartcrop.js), written for this server.
///
/// The region being cropped is reduced to a 32x32 grid (each cell the mean of up to 12x12
/// samples of its part of the region, colours premultiplied by alpha so transparent parts count
/// as black), and every cell is scored as the sum of:
/// - **edges:** five times the absolute Laplacian (4 times the cell minus its four neighbours,
///   edges clamped) of the luminance Y (CIE XYZ, 0...100);
/// - **skin:** `100 - 100 d`, where `d` is the distance between the cell's XYZ direction (the
///   vector divided by its length) and (0.78, 0.57, 0.44), libvips' skin direction;
/// - **colour:** the CIELAB chroma `sqrt(a*^2 + b*^2)`. libvips scores `a*` alone, which ranks a
///   green object below grey; chroma ranks every saturated colour above grey.
///
/// Skin and colour count only where Y is above 5 (dark areas are neither). The scores are
/// blurred with a Gaussian whose standard deviation is a tenth of the window's diagonal in grid
/// cells (at least 1): the score of a cell then stands for the window around it. The window is
/// centred on the peak (the best cell, the first in reading order on a tie, moved by less than
/// half a cell towards the better of its neighbours, where a parabola through the three peaks)
/// and clamped to the region.
///
/// Cost: at most 32 x 32 x 144 pixel reads and a few thousand operations on the grid, whatever
/// the region's size.
enum AttentionCrop {
    /// Cells per side of the grid the region is reduced to (libvips' 32).
    static let gridSide = 32
    /// Samples per side of a cell, at most.
    static let samplesPerCellSide = 12

    /// The window of `size` inside `region` of `bitmap` that attention chooses, in the bitmap's
    /// pixels. `size` larger than the region on a side is cut to it.
    static func window(of size: PixelSize, in region: PixelRect, of bitmap: Bitmap) -> PixelRect {
        let width = min(max(size.width, 1), region.width), height = min(max(size.height, 1), region.height)
        let scores = blurred(scores(of: reduced(region, of: bitmap)),
                             sigma: max(hypot(Double(width) * Double(gridSide) / Double(region.width),
                                              Double(height) * Double(gridSide) / Double(region.height)) / 10, 1))
        var best = 0
        for index in scores.indices where scores[index] > scores[best] { best = index }
        let column = best % gridSide, row = best / gridSide
        // The peak between cells: a parabola through the best cell and its two neighbours on each
        // axis (a cell is 1/32 of the region: a window placed by whole cells could be off by half
        // of one).
        func offset(_ before: Double?, _ peak: Double, _ after: Double?) -> Double {
            guard let before, let after else { return 0 }
            let curvature = before - 2 * peak + after
            guard curvature < 0 else { return 0 }
            return min(max((before - after) / (2 * curvature), -0.5), 0.5)
        }
        func score(_ x: Int, _ y: Int) -> Double? {
            (0..<gridSide).contains(x) && (0..<gridSide).contains(y) ? scores[y * gridSide + x] : nil
        }
        let peakX = Double(column) + offset(score(column - 1, row), scores[best], score(column + 1, row))
        let peakY = Double(row) + offset(score(column, row - 1), scores[best], score(column, row + 1))
        let centreX = (peakX + 0.5) * Double(region.width) / Double(gridSide)
        let centreY = (peakY + 0.5) * Double(region.height) / Double(gridSide)
        let left = min(max(Int((centreX - Double(width) / 2).rounded()), 0), region.width - width)
        let top = min(max(Int((centreY - Double(height) / 2).rounded()), 0), region.height - height)
        return PixelRect(x: region.x + left, y: region.y + top, width: width, height: height)
    }

    /// The region's mean colour per cell, as premultiplied sRGB in 0...1, row by row.
    static func reduced(_ region: PixelRect, of bitmap: Bitmap) -> [SIMD3<Double>] {
        let side = gridSide
        var cells = [SIMD3<Double>](repeating: .zero, count: side * side)
        // The sample positions along each axis, per cell (pixel indices inside the bitmap).
        func positions(origin: Int, length: Int, limit: Int) -> [[Int]] {
            (0..<side).map { cell in
                let start = Double(length) * Double(cell) / Double(side)
                let span = Double(length) / Double(side)
                let count = min(max(Int(span.rounded(.up)), 1), samplesPerCellSide)
                return (0..<count).map { sample in
                    let position = origin + Int(start + span * (Double(sample) + 0.5) / Double(count))
                    return min(max(position, 0), limit - 1)
                }
            }
        }
        let columns = positions(origin: region.x, length: region.width, limit: bitmap.width)
        let rows = positions(origin: region.y, length: region.height, limit: bitmap.height)
        bitmap.bytes.withUnsafeBufferPointer { pixels in
            for cellY in 0..<side {
                for cellX in 0..<side {
                    var sum = SIMD3<Double>.zero
                    for y in rows[cellY] {
                        let row = y * bitmap.bytesPerRow
                        for x in columns[cellX] {
                            let offset = row + x * Bitmap.bytesPerPixel
                            let alpha = Double(pixels[offset + 3]) / 255
                            sum += SIMD3(Double(pixels[offset]), Double(pixels[offset + 1]), Double(pixels[offset + 2])) * alpha
                        }
                    }
                    cells[cellY * side + cellX] = sum / Double(rows[cellY].count * columns[cellX].count * 255)
                }
            }
        }
        return cells
    }

    /// The score of each cell of a reduced region (edges, skin and colour; see the type).
    static func scores(of cells: [SIMD3<Double>]) -> [Double] {
        let side = gridSide
        let xyz = cells.map(Self.xyz)
        var scores = [Double](repeating: 0, count: cells.count)
        for y in 0..<side {
            for x in 0..<side {
                let index = y * side + x
                let luminance = xyz[index].y
                let neighbours = xyz[y * side + max(x - 1, 0)].y + xyz[y * side + min(x + 1, side - 1)].y
                    + xyz[max(y - 1, 0) * side + x].y + xyz[min(y + 1, side - 1) * side + x].y
                var score = abs(5 * (4 * luminance - neighbours))
                if luminance > 5 {
                    let length = (xyz[index] * xyz[index]).sum().squareRoot()
                    let direction = xyz[index] / length - SIMD3(0.78, 0.57, 0.44)
                    score += 100 - 100 * (direction * direction).sum().squareRoot()
                    score += chroma(ofXYZ: xyz[index])
                }
                scores[index] = score
            }
        }
        return scores
    }

    /// sRGB in 0...1 to CIE XYZ (D65) scaled so that white's Y is 100.
    static func xyz(_ rgb: SIMD3<Double>) -> SIMD3<Double> {
        func linear(_ value: Double) -> Double {
            value <= 0.04045 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
        }
        let r = linear(rgb.x), g = linear(rgb.y), b = linear(rgb.z)
        return SIMD3(0.4124 * r + 0.3576 * g + 0.1805 * b,
                     0.2126 * r + 0.7152 * g + 0.0722 * b,
                     0.0193 * r + 0.1192 * g + 0.9505 * b) * 100
    }

    /// The CIELAB chroma of a colour in XYZ (Y of white 100, D65).
    static func chroma(ofXYZ xyz: SIMD3<Double>) -> Double {
        func f(_ t: Double) -> Double {
            t > 216.0 / 24389.0 ? cbrt(t) : (24389.0 / 27.0 * t + 16) / 116
        }
        let fx = f(xyz.x / 95.047), fy = f(xyz.y / 100), fz = f(xyz.z / 108.883)
        let a = 500 * (fx - fy), b = 200 * (fy - fz)
        return (a * a + b * b).squareRoot()
    }

    /// `scores` (a grid of ``gridSide`` squared) blurred with a Gaussian of `sigma` cells,
    /// cut at 2 sigma, edges clamped.
    static func blurred(_ scores: [Double], sigma: Double) -> [Double] {
        let side = gridSide
        let radius = max(Int((2 * sigma).rounded(.up)), 1)
        var kernel = (-radius...radius).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
        let total = kernel.reduce(0, +)
        kernel = kernel.map { $0 / total }
        var across = [Double](repeating: 0, count: scores.count)
        for y in 0..<side {
            for x in 0..<side {
                var sum = 0.0
                for (offset, weight) in zip(-radius...radius, kernel) {
                    sum += weight * scores[y * side + min(max(x + offset, 0), side - 1)]
                }
                across[y * side + x] = sum
            }
        }
        var result = [Double](repeating: 0, count: scores.count)
        for y in 0..<side {
            for x in 0..<side {
                var sum = 0.0
                for (offset, weight) in zip(-radius...radius, kernel) {
                    sum += weight * across[min(max(y + offset, 0), side - 1) * side + x]
                }
                result[y * side + x] = sum
            }
        }
        return result
    }
}
