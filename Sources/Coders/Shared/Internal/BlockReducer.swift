import WebImageCore

/// A still thumbnail made from rows as they are decoded, never from a full-size bitmap: the
/// streaming form of ``BoxReduction/thumbnail(_:to:)`` (the same integer factors, the same
/// alpha-weighted block means, then the same Lanczos-3 resample of the small intermediate), so
/// its output is bit-identical to decoding in full and calling that.
///
/// Source pixels are summed into per-block accumulators (r*a, g*a, b*a and a per reduced
/// pixel). A block's mean does not depend on the order its pixels arrive in, so:
/// - ``Order/contiguous`` (rows in order, top-down or bottom-up, or any order in which a
///   block row's rows arrive together: PNG, BMP, RLE): one block row of sums is held, 32 bytes
///   per reduced column, and written out as soon as rows of the next block row arrive;
/// - ``Order/any`` (Adam7 passes, which revisit every row seven times): sums for every reduced
///   pixel, 32 bytes each.
///
/// Each block's denominator is its full area, so pixels that never arrive (truncated data)
/// count as transparent black, exactly as in a full decode of the same data.
///
/// Memory: the sums above plus the reduced bitmap (4 bytes per reduced pixel), which is under
/// 4x the target on each side (``BoxReduction/factors(from:to:gap:)`` leaves 2x to 4x).
/// Callers use it only when the factors reduce (``init(source:target:order:)`` returns `nil`
/// otherwise: the intermediate would be the source itself).
struct BlockReducer {
    /// How rows arrive.
    enum Order {
        /// Each block row's rows arrive together (in order, either direction).
        case contiguous
        /// In any order, each pixel once (Adam7 passes).
        case any
    }

    let source: PixelSize
    let target: PixelSize
    let fx: Int
    let fy: Int
    /// The intermediate: `ceil(source / factor)` per side.
    let reducedSize: PixelSize
    private let order: Order
    /// Per reduced pixel of the block rows held: r*a, g*a, b*a, a.
    private var sums: [UInt64]
    /// The block row held in `sums` (``Order/contiguous``), or -1.
    private var heldRow = -1
    /// The reduced image, RGBA8 with straight alpha.
    private var reduced: [UInt8]

    /// A reducer of a `source` image for a `target` thumbnail, or `nil` when the integer factors
    /// are 1 on both sides (no reduction to make: resample the full decode instead).
    init?(source: PixelSize, target: PixelSize, order: Order) {
        let (fx, fy) = BoxReduction.factors(from: source, to: target)
        guard fx > 1 || fy > 1, !source.isEmpty, !target.isEmpty else { return nil }
        self.source = source
        self.target = target
        self.fx = fx
        self.fy = fy
        self.order = order
        reducedSize = PixelSize(width: (source.width + fx - 1) / fx, height: (source.height + fy - 1) / fy)
        let heldRows = order == .any ? reducedSize.height : 1
        sums = [UInt64](repeating: 0, count: reducedSize.width * heldRows * 4)
        reduced = [UInt8](repeating: 0, count: reducedSize.width * reducedSize.height * 4)
    }

    /// Adds `count` RGBA8 (straight alpha) pixels of source row `y`: pixel `k` is at column
    /// `firstColumn + k * step`. Rows outside the source and pixels past its right edge are
    /// ignored.
    mutating func add(row y: Int, pixels: UnsafeRawPointer, firstColumn: Int = 0, step: Int = 1, count: Int) {
        guard y >= 0, y < source.height, firstColumn >= 0, firstColumn < source.width, step > 0, count > 0 else { return }
        let blockRow = y / fy
        let base: Int
        if order == .contiguous {
            if blockRow != heldRow {
                if heldRow >= 0 { flush(heldRow, from: 0) }
                heldRow = blockRow
            }
            base = 0
        } else {
            base = blockRow * reducedSize.width * 4
        }
        let usable = min(count, (source.width - 1 - firstColumn) / step + 1)
        let fx = fx
        sums.withUnsafeMutableBufferPointer { sums in
            let sums = sums.baseAddress! + base
            var column = firstColumn
            var block = column / fx
            var boundary = (block + 1) * fx
            var r: UInt64 = 0, g: UInt64 = 0, b: UInt64 = 0, a: UInt64 = 0
            for k in 0..<usable {
                if column >= boundary {
                    let s = block * 4
                    sums[s] &+= r; sums[s + 1] &+= g; sums[s + 2] &+= b; sums[s + 3] &+= a
                    r = 0; g = 0; b = 0; a = 0
                    block = column / fx
                    boundary = (block + 1) * fx
                }
                let pixel = pixels.loadUnaligned(fromByteOffset: k * 4, as: UInt32.self)
                let alpha = UInt64(pixel >> 24)
                r &+= UInt64(pixel & 0xFF) &* alpha
                g &+= UInt64(pixel >> 8 & 0xFF) &* alpha
                b &+= UInt64(pixel >> 16 & 0xFF) &* alpha
                a &+= alpha
                column += step
            }
            let s = block * 4
            sums[s] &+= r; sums[s + 1] &+= g; sums[s + 2] &+= b; sums[s + 3] &+= a
        }
    }

    /// Adds `count` opaque RGB8 pixels (3 bytes each, no alpha) of source row `y`, packed from
    /// column 0 (PNG's truecolor rows without a color key, as unfiltered): the same sums as
    /// ``add(row:pixels:firstColumn:step:count:)`` gives them with alpha 255, made without the
    /// conversion to RGBA8 or a multiply per pixel (the block's sums are scaled once). Only for
    /// ``Order/contiguous``.
    mutating func addOpaqueRGB(row y: Int, pixels: UnsafePointer<UInt8>, count: Int) {
        assert(order == .contiguous, "addOpaqueRGB holds one block row")
        guard y >= 0, y < source.height, count > 0 else { return }
        let blockRow = y / fy
        if blockRow != heldRow {
            if heldRow >= 0 { flush(heldRow, from: 0) }
            heldRow = blockRow
        }
        let usable = min(count, source.width)
        let fx = fx
        sums.withUnsafeMutableBufferPointer { sums in
            let sums = sums.baseAddress!
            var start = 0
            var s = 0
            while start < usable {
                let end = min(usable, start + fx)
                var r = 0, g = 0, b = 0
                var p = pixels + start * 3
                for _ in start..<end {
                    r &+= Int(p[0])
                    g &+= Int(p[1])
                    b &+= Int(p[2])
                    p += 3
                }
                sums[s] &+= UInt64(r &* 255)
                sums[s + 1] &+= UInt64(g &* 255)
                sums[s + 2] &+= UInt64(b &* 255)
                sums[s + 3] &+= UInt64((end - start) &* 255)
                start = end
                s += 4
            }
        }
    }

    /// Writes the means of block row `blockRow` (its sums at `offset` in `sums`) into the
    /// reduced image and clears those sums.
    private mutating func flush(_ blockRow: Int, from offset: Int) {
        let width = reducedSize.width
        let rows = min(fy, source.height - blockRow * fy)
        let fx = fx, sourceWidth = source.width
        sums.withUnsafeMutableBufferPointer { sums in
            reduced.withUnsafeMutableBufferPointer { out in
                for column in 0..<width {
                    let s = offset + column * 4, o = (blockRow * width + column) * 4
                    let area = UInt64(rows * min(fx, sourceWidth - column * fx))
                    let alphaSum = sums[s + 3]
                    if alphaSum > 0 {
                        out[o] = UInt8((sums[s] + alphaSum / 2) / alphaSum)
                        out[o + 1] = UInt8((sums[s + 1] + alphaSum / 2) / alphaSum)
                        out[o + 2] = UInt8((sums[s + 2] + alphaSum / 2) / alphaSum)
                    } else {
                        out[o] = 0; out[o + 1] = 0; out[o + 2] = 0
                    }
                    out[o + 3] = UInt8((alphaSum + area / 2) / area)
                    sums[s] = 0; sums[s + 1] = 0; sums[s + 2] = 0; sums[s + 3] = 0
                }
            }
        }
    }

    /// The reduced image (every block row written out), before the resample.
    mutating func reducedBitmap(hasAlpha: Bool) throws -> Bitmap {
        switch order {
        case .contiguous:
            if heldRow >= 0 { flush(heldRow, from: 0) }
            heldRow = -1
        case .any:
            for blockRow in 0..<reducedSize.height { flush(blockRow, from: blockRow * reducedSize.width * 4) }
        }
        return try Bitmap(width: reducedSize.width, height: reducedSize.height, bytes: reduced, hasAlpha: hasAlpha)
    }

    /// The thumbnail: the reduced image resampled to ``target`` with ``Thumbnail/resize(_:to:)``.
    /// Call once, after the last row.
    mutating func thumbnail(hasAlpha: Bool) throws -> Bitmap {
        let bitmap = try reducedBitmap(hasAlpha: hasAlpha)
        reduced = []
        sums = []
        return try Thumbnail.resize(bitmap, to: target)
    }
}
