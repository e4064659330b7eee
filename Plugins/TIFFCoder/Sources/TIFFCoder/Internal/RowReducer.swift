import WebImageCore

/// A thumbnail made from rows as they are decoded, never from a full-size bitmap: each block of
/// `fx` x `fy` source pixels becomes one pixel (alpha-weighted mean), leaving an intermediate of
/// 2x to 4x the target per side that is then resampled with Lanczos-3.
///
/// Rows must arrive in order (top-down). Memory: 32 bytes per reduced column for the block row
/// being summed, plus the reduced bitmap. Rows that never arrive (a truncated strip) count as
/// transparent black.
struct RowReducer {
    /// The size of the rows added.
    let source: PixelSize
    /// Source columns per reduced pixel.
    let fx: Int
    /// Source rows per reduced pixel.
    let fy: Int
    /// `ceil(source / factor)` per side.
    let reducedSize: PixelSize
    /// Per reduced column of the block row being summed: r*a, g*a, b*a, a.
    private var sums: [UInt64]
    /// The block row in `sums`, or -1.
    private var heldRow = -1
    /// The reduced image, RGBA8 with straight alpha.
    private var reduced: [UInt8]

    /// A reducer from `source` towards `target`, or `nil` when no side would shrink by 2 or more.
    init?(source: PixelSize, target: PixelSize) {
        guard !source.isEmpty, !target.isEmpty else { return nil }
        let fx = max(1, source.width / max(1, target.width * 2))
        let fy = max(1, source.height / max(1, target.height * 2))
        guard fx > 1 || fy > 1 else { return nil }
        self.source = source
        self.fx = fx
        self.fy = fy
        reducedSize = PixelSize(width: (source.width + fx - 1) / fx, height: (source.height + fy - 1) / fy)
        sums = [UInt64](repeating: 0, count: reducedSize.width * 4)
        reduced = [UInt8](repeating: 0, count: reducedSize.width * reducedSize.height * 4)
    }

    /// Adds source row `y`: `source.width` RGBA8 pixels with straight alpha.
    mutating func add(row y: Int, pixels: UnsafePointer<UInt8>) {
        guard y >= 0, y < source.height else { return }
        let blockRow = y / fy
        if blockRow != heldRow {
            if heldRow >= 0 { flush() }
            heldRow = blockRow
        }
        let fx = fx, width = source.width
        sums.withUnsafeMutableBufferPointer { sums in
            for x in 0..<width {
                let p = pixels + x * 4
                let a = UInt64(p[3])
                let s = (x / fx) * 4
                sums[s] += UInt64(p[0]) * a
                sums[s + 1] += UInt64(p[1]) * a
                sums[s + 2] += UInt64(p[2]) * a
                sums[s + 3] += a
            }
        }
    }

    /// Writes the held block row into the reduced image and clears the sums.
    private mutating func flush() {
        let blockHeight = min(fy, source.height - heldRow * fy)
        let rowBase = heldRow * reducedSize.width * 4
        for column in 0..<reducedSize.width {
            let blockWidth = min(fx, source.width - column * fx)
            let area = UInt64(blockWidth * blockHeight)
            let s = column * 4
            let alphaSum = sums[s + 3]
            let out = rowBase + s
            if alphaSum > 0 {
                reduced[out] = UInt8((sums[s] + alphaSum / 2) / alphaSum)
                reduced[out + 1] = UInt8((sums[s + 1] + alphaSum / 2) / alphaSum)
                reduced[out + 2] = UInt8((sums[s + 2] + alphaSum / 2) / alphaSum)
                reduced[out + 3] = UInt8((alphaSum + area / 2) / area)
            }
            sums[s] = 0; sums[s + 1] = 0; sums[s + 2] = 0; sums[s + 3] = 0
        }
    }

    /// The reduced image (flushing the last block row).
    mutating func finish(hasAlpha: Bool) throws -> Bitmap {
        if heldRow >= 0 { flush() }
        heldRow = -1
        return try Bitmap(width: reducedSize.width, height: reducedSize.height, bytes: reduced, hasAlpha: hasAlpha)
    }
}
