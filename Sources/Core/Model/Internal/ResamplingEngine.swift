/// The pixel loops behind ``Bitmap/resampled(to:filter:)``.
///
/// Pixels are filtered as `SIMD4<Float>` in a premultiplied form scaled by 255:
/// `(r * a, g * a, b * a, 255 * a)` for straight RGBA8 `(r, g, b, a)`. That keeps every color
/// exactly representable (a pixel of alpha 1 keeps its color), needs one multiply to enter and
/// one divide to leave, and filtering it is the same as filtering premultiplied colors.
///
/// An opaque bitmap (`hasAlpha == false`) skips the alpha arithmetic: its pixels are filtered as
/// `(r, g, b, 255)` and leave with alpha 255, which is what premultiplying by an alpha of 255
/// and dividing by it again gives, without the divide per output pixel. Its alpha bytes are
/// taken as 255 (``Bitmap/hasAlpha`` says they are).
///
/// Two orders are possible and the cheaper one is chosen from the tap counts:
/// - horizontal first: each needed source row is premultiplied once, filtered horizontally into
///   a ring of intermediate rows (as many as the widest vertical window, so the ring stays in
///   cache), and each output row sums its window of ring rows;
/// - vertical first: each output row sums its window of source rows (premultiplied on the fly)
///   into one wide row, then filters that row horizontally. Better when rows shrink much less
///   than columns (for example 100x4000 to 4000x100).
enum ResamplingEngine {
    /// Nearest neighbour: exact copies of source pixels.
    static func nearest(_ source: Bitmap, to size: PixelSize) throws -> Bitmap {
        let xs = nearestIndices(input: source.width, output: size.width)
        let ys = nearestIndices(input: source.height, output: size.height)
        let rowBytes = size.width * 4
        let bytes = [UInt8](unsafeUninitializedCapacity: rowBytes * size.height) { buffer, initialized in
            source.bytes.withUnsafeBytes { src in
                let base = UnsafeMutableRawPointer(buffer.baseAddress!)
                for y in 0..<size.height {
                    let srcRow = src.baseAddress! + ys[y] * source.bytesPerRow
                    let dstRow = base + y * rowBytes
                    for x in 0..<size.width {
                        let pixel = srcRow.loadUnaligned(fromByteOffset: xs[x] * 4, as: UInt32.self)
                        dstRow.storeBytes(of: pixel, toByteOffset: x * 4, as: UInt32.self)
                    }
                }
            }
            initialized = rowBytes * size.height
        }
        return try Bitmap(width: size.width, height: size.height, bytes: bytes, hasAlpha: source.hasAlpha)
    }

    /// For each output index, the input index whose pixel covers the output pixel's center.
    private static func nearestIndices(input: Int, output: Int) -> [Int] {
        let scale = Double(input) / Double(output)
        return (0..<output).map { min(Int((Double($0) + 0.5) * scale), input - 1) }
    }

    /// Separable convolution with `filter` in premultiplied space.
    static func convolve(_ source: Bitmap, to size: PixelSize, filter: ResamplingFilter) throws -> Bitmap {
        let horizontal = ResamplingWeights(inputCount: source.width, outputCount: size.width, filter: filter)
        let vertical = ResamplingWeights(inputCount: source.height, outputCount: size.height, filter: filter)

        // Cost in multiply-adds (premultiplying a pixel counts as one; on the fly as two).
        let horizontalFirstCost = source.height * (source.width + horizontal.totalTaps) + vertical.totalTaps * size.width
        let verticalFirstCost = vertical.totalTaps * source.width * 2 + size.height * horizontal.totalTaps
        let rowBytes = size.width * 4
        var completed = true
        let bytes = [UInt8](unsafeUninitializedCapacity: rowBytes * size.height) { buffer, initialized in
            source.bytes.withUnsafeBytes { src in
                let output = UnsafeMutableRawPointer(buffer.baseAddress!)
                let pixels = ResamplingPixelForm(opaque: !source.hasAlpha)
                if horizontalFirstCost <= verticalFirstCost {
                    completed = horizontalFirst(src.baseAddress!, source: source, horizontal: horizontal, vertical: vertical, pixels: pixels, output: output)
                } else {
                    completed = verticalFirst(src.baseAddress!, source: source, horizontal: horizontal, vertical: vertical, pixels: pixels, output: output)
                }
            }
            initialized = rowBytes * size.height
        }
        // A cancelled job (BlockingWorkExecutor.isCurrentJobCancelled) stops between rows.
        guard completed else { throw CancellationError() }
        return try Bitmap(width: size.width, height: size.height, bytes: bytes, hasAlpha: source.hasAlpha)
    }

    // MARK: - The two orders

    private static func horizontalFirst(
        _ src: UnsafeRawPointer, source: Bitmap,
        horizontal: ResamplingWeights, vertical: ResamplingWeights,
        pixels: ResamplingPixelForm, output: UnsafeMutableRawPointer
    ) -> Bool {
        let srcWidth = source.width
        let dstWidth = horizontal.outputCount
        let ringCapacity = vertical.stride
        let premultiplied = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: srcWidth)
        defer { premultiplied.deallocate() }
        let ring = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: ringCapacity * dstWidth)
        defer { ring.deallocate() }
        let accumulator = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: dstWidth)
        defer { accumulator.deallocate() }
        // Which source row each ring slot holds (-1: none).
        var slotRow = [Int](repeating: -1, count: ringCapacity)

        return horizontal.withTables { hFirst, hCount, hWeights, hStride in
            vertical.withTables { vFirst, vCount, vWeights, vStride in
                for y in 0..<vertical.outputCount {
                    if BlockingWorkExecutor.isCurrentJobCancelled(beforeRow: y) { return false }
                    let first = vFirst[y]
                    let count = vCount[y]
                    // Make sure every row of the window is in the ring.
                    for row in first..<(first + count) {
                        let slot = row % ringCapacity
                        guard slotRow[slot] != row else { continue }
                        let target = ring + slot * dstWidth
                        let srcRow = src + row * source.bytesPerRow
                        if horizontal.isIdentity {
                            pixels.enter(srcRow, count: srcWidth, into: target)
                        } else {
                            pixels.enter(srcRow, count: srcWidth, into: premultiplied)
                            filterRow(premultiplied, first: hFirst, count: hCount, weights: hWeights, stride: hStride,
                                      outputCount: dstWidth, into: target)
                        }
                        slotRow[slot] = row
                    }
                    // Sum the window's rows, two at a time.
                    let weights = vWeights + y * vStride
                    let row0 = ring + (first % ringCapacity) * dstWidth
                    let w0 = weights[0]
                    var k = 1
                    if count >= 2 {
                        let row1 = ring + ((first + 1) % ringCapacity) * dstWidth
                        let w1 = weights[1]
                        for x in 0..<dstWidth { accumulator[x] = row0[x] * w0 + row1[x] * w1 }
                        k = 2
                    } else {
                        for x in 0..<dstWidth { accumulator[x] = row0[x] * w0 }
                    }
                    while k + 1 < count {
                        let rowA = ring + ((first + k) % ringCapacity) * dstWidth
                        let rowB = ring + ((first + k + 1) % ringCapacity) * dstWidth
                        let wA = weights[k]
                        let wB = weights[k + 1]
                        for x in 0..<dstWidth { accumulator[x] += rowA[x] * wA + rowB[x] * wB }
                        k += 2
                    }
                    if k < count {
                        let rowA = ring + ((first + k) % ringCapacity) * dstWidth
                        let wA = weights[k]
                        for x in 0..<dstWidth { accumulator[x] += rowA[x] * wA }
                    }
                    pixels.leave(accumulator, count: dstWidth, into: output + y * dstWidth * 4)
                }
                return true
            }
        }
    }

    private static func verticalFirst(
        _ src: UnsafeRawPointer, source: Bitmap,
        horizontal: ResamplingWeights, vertical: ResamplingWeights,
        pixels: ResamplingPixelForm, output: UnsafeMutableRawPointer
    ) -> Bool {
        let srcWidth = source.width
        let dstWidth = horizontal.outputCount
        let accumulator = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: srcWidth)
        defer { accumulator.deallocate() }
        let filtered = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: dstWidth)
        defer { filtered.deallocate() }

        return horizontal.withTables { hFirst, hCount, hWeights, hStride in
            vertical.withTables { vFirst, vCount, vWeights, vStride in
                for y in 0..<vertical.outputCount {
                    if BlockingWorkExecutor.isCurrentJobCancelled(beforeRow: y) { return false }
                    let first = vFirst[y]
                    let count = vCount[y]
                    let weights = vWeights + y * vStride
                    pixels.enter(src + first * source.bytesPerRow, count: srcWidth, into: accumulator, weight: weights[0])
                    for k in 1..<max(1, count) {
                        pixels.enterAdding(src + (first + k) * source.bytesPerRow, count: srcWidth, into: accumulator, weight: weights[k])
                    }
                    if horizontal.isIdentity {
                        pixels.leave(accumulator, count: dstWidth, into: output + y * dstWidth * 4)
                    } else {
                        filterRow(accumulator, first: hFirst, count: hCount, weights: hWeights, stride: hStride,
                                  outputCount: dstWidth, into: filtered)
                        pixels.leave(filtered, count: dstWidth, into: output + y * dstWidth * 4)
                    }
                }
                return true
            }
        }
    }

    // MARK: - Row kernels

    /// One horizontal pass over a row of premultiplied pixels. Four accumulators break the
    /// dependency chain of the long windows of a strong reduction.
    private static func filterRow(
        _ row: UnsafePointer<SIMD4<Float>>,
        first: UnsafePointer<Int>, count: UnsafePointer<Int>, weights: UnsafePointer<Float>, stride: Int,
        outputCount: Int, into dst: UnsafeMutablePointer<SIMD4<Float>>
    ) {
        for i in 0..<outputCount {
            let taps = count[i]
            let s = row + first[i]
            let w = weights + i * stride
            var a0 = SIMD4<Float>.zero
            var a1 = SIMD4<Float>.zero
            var a2 = SIMD4<Float>.zero
            var a3 = SIMD4<Float>.zero
            var k = 0
            while k + 4 <= taps {
                a0 += s[k] * w[k]
                a1 += s[k + 1] * w[k + 1]
                a2 += s[k + 2] * w[k + 2]
                a3 += s[k + 3] * w[k + 3]
                k += 4
            }
            while k < taps {
                a0 += s[k] * w[k]
                k += 1
            }
            dst[i] = (a0 + a1) + (a2 + a3)
        }
    }

    private static func filterRow(
        _ row: UnsafeMutablePointer<SIMD4<Float>>,
        first: UnsafePointer<Int>, count: UnsafePointer<Int>, weights: UnsafePointer<Float>, stride: Int,
        outputCount: Int, into dst: UnsafeMutablePointer<SIMD4<Float>>
    ) {
        filterRow(UnsafePointer(row), first: first, count: count, weights: weights, stride: stride, outputCount: outputCount, into: dst)
    }
}

extension ResamplingWeights {
    /// Calls `body` with pointers to the tables: first, count, weights, stride.
    @inline(__always)
    func withTables<R>(_ body: (UnsafePointer<Int>, UnsafePointer<Int>, UnsafePointer<Float>, Int) throws -> R) rethrows -> R {
        try first.withUnsafeBufferPointer { first in
            try count.withUnsafeBufferPointer { count in
                try weights.withUnsafeBufferPointer { weights in
                    try body(first.baseAddress!, count.baseAddress!, weights.baseAddress!, stride)
                }
            }
        }
    }
}
