import WebImageCore

/// Reduces the colors of a bitmap to a palette of at most 256 entries by median cut over a
/// 5-bit-per-channel histogram (Heckbert's method): the box with the most pixels along its
/// longest side is split at the median until there are enough boxes; each box's color is the
/// pixel-weighted mean. Pixels map to the nearest palette entry (squared RGB distance), looked
/// up once per histogram cell. No dithering: flat areas stay flat, as GIF compresses best.
struct MedianCutQuantizer {
    /// The palette, as (r, g, b) triples.
    private(set) var palette: [(UInt8, UInt8, UInt8)] = []
    /// Histogram cell (15-bit RGB) to palette index, filled lazily.
    private var cellToIndex = [Int16](repeating: -1, count: 1 << 15)

    /// Builds a palette of at most `maximumColors` for the opaque-enough pixels of `bitmaps`
    /// (alpha >= 128).
    init(bitmaps: [Bitmap], maximumColors: Int) {
        var histogram = [Int](repeating: 0, count: 1 << 15)
        for bitmap in bitmaps {
            bitmap.bytes.withUnsafeBufferPointer { bytes in
                for y in 0..<bitmap.height {
                    var index = y * bitmap.bytesPerRow
                    let end = index + bitmap.width * 4
                    while index < end {
                        if bytes[index + 3] >= 128 {
                            histogram[Self.cell(bytes[index], bytes[index + 1], bytes[index + 2])] += 1
                        }
                        index += 4
                    }
                }
            }
        }
        let cells = histogram.indices.filter { histogram[$0] > 0 }
        guard !cells.isEmpty else {
            palette = [(0, 0, 0)]
            return
        }
        if cells.count <= maximumColors {
            // Few colors: exact cells, each mapped to the mean of its pixels below.
            palette = cells.map { Self.center($0) }
            for (index, cell) in cells.enumerated() { cellToIndex[cell] = Int16(index) }
            palette = Self.means(boxes: cells.map { [$0] }, histogram: histogram, bitmaps: bitmaps, cellToIndex: cellToIndex) ?? palette
            return
        }
        var boxes: [[Int]] = [cells]
        while boxes.count < maximumColors {
            // Split the box with the most pixels that can be split.
            var best = -1, bestWeight = 0
            for (index, box) in boxes.enumerated() where box.count > 1 {
                let weight = box.reduce(0) { $0 + histogram[$1] }
                if weight > bestWeight { best = index; bestWeight = weight }
            }
            guard best >= 0 else { break }
            var box = boxes[best]
            var lows = [31, 31, 31], highs = [0, 0, 0]
            for cell in box {
                let components = [cell >> 10, cell >> 5 & 31, cell & 31]
                for channel in 0..<3 {
                    lows[channel] = min(lows[channel], components[channel])
                    highs[channel] = max(highs[channel], components[channel])
                }
            }
            let ranges = (0..<3).map { highs[$0] - lows[$0] }
            let axis = ranges.firstIndex(of: ranges.max()!)!
            let shift = [10, 5, 0][axis]
            box.sort { ($0 >> shift) & 31 < ($1 >> shift) & 31 }
            var accumulated = 0
            var split = 1
            for (index, cell) in box.enumerated() {
                accumulated += histogram[cell]
                if accumulated * 2 >= bestWeight {
                    split = max(1, min(box.count - 1, index + 1))
                    break
                }
            }
            boxes[best] = Array(box[..<split])
            boxes.append(Array(box[split...]))
        }
        for (index, box) in boxes.enumerated() {
            for cell in box { cellToIndex[cell] = Int16(index) }
        }
        palette = Self.means(boxes: boxes, histogram: histogram, bitmaps: bitmaps, cellToIndex: cellToIndex)
            ?? boxes.map { Self.center($0[0]) }
    }

    static func cell(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Int {
        Int(r >> 3) << 10 | Int(g >> 3) << 5 | Int(b >> 3)
    }

    static func center(_ cell: Int) -> (UInt8, UInt8, UInt8) {
        (UInt8((cell >> 10) << 3 | 4), UInt8((cell >> 5 & 31) << 3 | 4), UInt8((cell & 31) << 3 | 4))
    }

    /// The mean color of the pixels in each box.
    private static func means(boxes: [[Int]], histogram: [Int], bitmaps: [Bitmap], cellToIndex: [Int16]) -> [(UInt8, UInt8, UInt8)]? {
        var sums = [(Int, Int, Int, Int)](repeating: (0, 0, 0, 0), count: boxes.count)
        for bitmap in bitmaps {
            bitmap.bytes.withUnsafeBufferPointer { bytes in
                for y in 0..<bitmap.height {
                    var index = y * bitmap.bytesPerRow
                    let end = index + bitmap.width * 4
                    while index < end {
                        if bytes[index + 3] >= 128 {
                            let box = Int(cellToIndex[cell(bytes[index], bytes[index + 1], bytes[index + 2])])
                            sums[box].0 += Int(bytes[index])
                            sums[box].1 += Int(bytes[index + 1])
                            sums[box].2 += Int(bytes[index + 2])
                            sums[box].3 += 1
                        }
                        index += 4
                    }
                }
            }
        }
        guard sums.allSatisfy({ $0.3 > 0 }) else { return nil }
        return sums.map { (UInt8(($0.0 + $0.3 / 2) / $0.3), UInt8(($0.1 + $0.3 / 2) / $0.3), UInt8(($0.2 + $0.3 / 2) / $0.3)) }
    }

    /// The palette index for a color (nearest entry; cached per histogram cell).
    mutating func index(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Int {
        let cell = Self.cell(r, g, b)
        let cached = cellToIndex[cell]
        if cached >= 0 { return Int(cached) }
        var best = 0, bestDistance = Int.max
        for (index, entry) in palette.enumerated() {
            let dr = Int(entry.0) - Int(r), dg = Int(entry.1) - Int(g), db = Int(entry.2) - Int(b)
            let distance = dr * dr + dg * dg + db * db
            if distance < bestDistance { best = index; bestDistance = distance }
        }
        cellToIndex[cell] = Int16(best)
        return best
    }
}
