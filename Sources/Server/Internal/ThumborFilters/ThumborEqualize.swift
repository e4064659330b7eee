import WebImageCore

/// thumbor's `equalize()` filter with its own arithmetic (`thumbor/ext/filters/_equalize.c`):
/// red, green and blue each mapped through its own cumulative histogram,
/// `(cdf(v) - cdfMin) / (pixels - cdfMin) * 255` in `float`, truncated. Alpha is kept, and
/// every pixel counts, transparent ones too.
///
/// thumbor's quirk is kept: `cdfMin` is searched for in the three channels together and the
/// search stops at the first level where any channel has pixels, so a channel whose darkest
/// level is brighter than that keeps `cdfMin` 0. A channel of one level only gives 0 (thumbor
/// divides 0 by 0, and its build turns the NaN into 0).
enum ThumborEqualize {
    /// `bitmap` equalised.
    static func apply(_ bitmap: Bitmap) -> Bitmap {
        let width = bitmap.width, height = bitmap.height
        let area = width * height
        guard area > 0 else { return bitmap }
        var histograms = [[Int]](repeating: [Int](repeating: 0, count: 256), count: 3)
        bitmap.bytes.withUnsafeBufferPointer { pixels in
            for y in 0..<height {
                var offset = y * bitmap.bytesPerRow
                for _ in 0..<width {
                    for channel in 0..<3 { histograms[channel][Int(pixels[offset + channel])] += 1 }
                    offset += 4
                }
            }
        }
        // The cumulative frequency of each level a channel has (0 for the levels it has not).
        var cumulative = [[Int]](repeating: [Int](repeating: 0, count: 256), count: 3)
        for channel in 0..<3 {
            var running = 0
            for level in 0..<256 {
                running += histograms[channel][level]
                if histograms[channel][level] > 0 { cumulative[channel][level] = running }
            }
        }
        var minimum = [0, 0, 0]
        var level = 0
        while minimum.allSatisfy({ $0 == 0 }), level < 256 {
            for channel in 0..<3 where minimum[channel] == 0 && cumulative[channel][level] != 0 {
                minimum[channel] = cumulative[channel][level]
            }
            level += 1
        }
        let tables = (0..<3).map { channel in
            (0..<256).map { level -> UInt8 in
                let value = (Float(cumulative[channel][level]) - Float(minimum[channel])) / Float(area - minimum[channel]) * 255
                return ThumborCArithmetic.byte(truncating: Double(value))
            }
        }
        return ThumborChannelTables.apply(bitmap, red: tables[0], green: tables[1], blue: tables[2])
    }
}
