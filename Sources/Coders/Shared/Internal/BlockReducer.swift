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
///   pixel, in the narrowest integers that cannot overflow for the block's area (``Lane``):
///   8 bytes each for an opaque image whose blocks hold at most 257 pixels (colour sums without
///   the alpha factor, 16-bit), 16 bytes (32-bit) for any block up to 66,051 pixels, else 32.
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

    /// How the four sums of a block are stored (``Order/any``: one per reduced pixel, so the
    /// width matters; ``Order/contiguous`` holds one block row and always uses ``u64``).
    enum Lane {
        /// r*a, g*a, b*a, a as UInt64.
        case u64
        /// The same as UInt32: for blocks of at most 66,051 pixels (255 * 255 each).
        case u32
        /// An opaque image (every pixel added has alpha 255): r, g, b and the pixel count as
        /// UInt16, for blocks of at most 257 pixels (255 each); read back times 255.
        case opaqueU16
    }

    let source: PixelSize
    let target: PixelSize
    let fx: Int
    let fy: Int
    /// The intermediate: `ceil(source / factor)` per side.
    let reducedSize: PixelSize
    private let order: Order
    let lane: Lane
    /// Per reduced pixel of the block rows held: r*a, g*a, b*a, a, stored as ``lane`` says
    /// (UInt32 and UInt16 lanes packed into the UInt64 elements).
    private var sums: [UInt64]
    /// The block row held in `sums` (``Order/contiguous``), or -1.
    private var heldRow = -1
    /// The reduced image, RGBA8 with straight alpha.
    private var reduced: [UInt8]

    /// A reducer of a `source` image for a `target` thumbnail, or `nil` when the integer factors
    /// are 1 on both sides (no reduction to make: resample the full decode instead).
    /// - Parameter opaque: Every pixel that will be added has alpha 255 (pixels that never
    ///   arrive count as transparent all the same): lets ``Order/any`` keep narrower sums.
    init?(source: PixelSize, target: PixelSize, order: Order, opaque: Bool = false) {
        let (fx, fy) = BoxReduction.factors(from: source, to: target)
        self.init(source: source, fx: fx, fy: fy, target: target, order: order, opaque: opaque)
    }

    /// A reducer of a `source` image by `factor` on both sides whose thumbnail is the reduced
    /// image itself (`ceil(side / factor)`, no resample), or `nil` for a factor under 2.
    init?(source: PixelSize, factor: Int, order: Order, opaque: Bool = false) {
        guard factor > 1 else { return nil }
        self.init(source: source, fx: factor, fy: factor, target: nil, order: order, opaque: opaque)
    }

    /// `target` `nil`: the thumbnail is the reduced image itself.
    private init?(source: PixelSize, fx: Int, fy: Int, target: PixelSize?, order: Order, opaque: Bool) {
        guard fx > 1 || fy > 1, !source.isEmpty, !(target?.isEmpty ?? false) else { return nil }
        self.source = source
        self.fx = fx
        self.fy = fy
        self.order = order
        reducedSize = BoxReduction.reducedSize(of: source, fx: fx, fy: fy)
        self.target = target ?? reducedSize
        let area = fx * fy
        if order == .contiguous {
            lane = .u64
        } else if opaque, area * 255 <= Int(UInt16.max) {
            lane = .opaqueU16
        } else if area * 255 * 255 <= Int(UInt32.max) {
            lane = .u32
        } else {
            lane = .u64
        }
        let heldRows = order == .any ? reducedSize.height : 1
        let lanesPerElement = lane == .u64 ? 1 : lane == .u32 ? 2 : 4
        sums = [UInt64](repeating: 0, count: (reducedSize.width * heldRows * 4 + lanesPerElement - 1) / lanesPerElement)
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
        switch lane {
        case .u64: Self.add(UInt64.self, into: &sums, base: base, pixels: pixels, firstColumn: firstColumn, step: step, usable: usable, fx: fx, divisor: 1)
        case .u32: Self.add(UInt32.self, into: &sums, base: base, pixels: pixels, firstColumn: firstColumn, step: step, usable: usable, fx: fx, divisor: 1)
        case .opaqueU16: Self.add(UInt16.self, into: &sums, base: base, pixels: pixels, firstColumn: firstColumn, step: step, usable: usable, fx: fx, divisor: 255)
        }
    }

    /// The loop of ``add(row:pixels:firstColumn:step:count:)`` with the sums stored as `Lane`
    /// (each block's sums divided by `divisor`: 255 for ``Lane/opaqueU16``, where alpha is 255).
    private static func add<Lane: FixedWidthInteger & UnsignedInteger>(
        _: Lane.Type, into storage: inout [UInt64], base: Int, pixels: UnsafeRawPointer, firstColumn: Int, step: Int, usable: Int, fx: Int, divisor: UInt64
    ) {
        storage.withUnsafeMutableBufferPointer { storage in
            storage.withMemoryRebound(to: Lane.self) { lanes in
                let sums = lanes.baseAddress! + base
                func store(_ s: Int, _ r: UInt64, _ g: UInt64, _ b: UInt64, _ a: UInt64) {
                    sums[s] &+= Lane(truncatingIfNeeded: r / divisor)
                    sums[s + 1] &+= Lane(truncatingIfNeeded: g / divisor)
                    sums[s + 2] &+= Lane(truncatingIfNeeded: b / divisor)
                    sums[s + 3] &+= Lane(truncatingIfNeeded: a / divisor)
                }
                var column = firstColumn
                var block = column / fx
                var boundary = (block + 1) * fx
                var r: UInt64 = 0, g: UInt64 = 0, b: UInt64 = 0, a: UInt64 = 0
                for k in 0..<usable {
                    if column >= boundary {
                        store(block * 4, r, g, b, a)
                        r = 0; g = 0; b = 0; a = 0
                        block = column / fx
                        boundary = (block + 1) * fx
                    }
                    let pixel = pixels.loadUnaligned(fromByteOffset: k * 4, as: UInt32.self)
                    let alpha = UInt64(pixel >> 24)
                    assert(divisor == 1 || alpha == 255, "an opaque reducer was given a pixel with alpha \(alpha)")
                    r &+= UInt64(pixel & 0xFF) &* alpha
                    g &+= UInt64(pixel >> 8 & 0xFF) &* alpha
                    b &+= UInt64(pixel >> 16 & 0xFF) &* alpha
                    a &+= alpha
                    column += step
                }
                store(block * 4, r, g, b, a)
            }
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
        switch lane {
        case .u64: flush(UInt64.self, blockRow, from: offset, factor: 1)
        case .u32: flush(UInt32.self, blockRow, from: offset, factor: 1)
        case .opaqueU16: flush(UInt16.self, blockRow, from: offset, factor: 255)
        }
    }

    /// ``flush(_:from:)`` with the sums stored as `Lane` (read back times `factor`).
    private mutating func flush<Lane: FixedWidthInteger & UnsignedInteger>(_: Lane.Type, _ blockRow: Int, from offset: Int, factor: UInt64) {
        let width = reducedSize.width
        let rows = min(fy, source.height - blockRow * fy)
        let fx = fx, sourceWidth = source.width
        sums.withUnsafeMutableBufferPointer { storage in
            storage.withMemoryRebound(to: Lane.self) { sums in
                reduced.withUnsafeMutableBufferPointer { out in
                    for column in 0..<width {
                        let s = offset + column * 4, o = (blockRow * width + column) * 4
                        let area = UInt64(rows * min(fx, sourceWidth - column * fx))
                        let alphaSum = UInt64(sums[s + 3]) * factor
                        if alphaSum > 0 {
                            out[o] = UInt8((UInt64(sums[s]) * factor + alphaSum / 2) / alphaSum)
                            out[o + 1] = UInt8((UInt64(sums[s + 1]) * factor + alphaSum / 2) / alphaSum)
                            out[o + 2] = UInt8((UInt64(sums[s + 2]) * factor + alphaSum / 2) / alphaSum)
                        } else {
                            out[o] = 0; out[o + 1] = 0; out[o + 2] = 0
                        }
                        out[o + 3] = UInt8((alphaSum + area / 2) / area)
                        sums[s] = 0; sums[s + 1] = 0; sums[s + 2] = 0; sums[s + 3] = 0
                    }
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
