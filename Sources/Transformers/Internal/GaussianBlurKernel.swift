import WebImageCore

/// A Gaussian blur made of three extended box blurs per direction (Gwosdek, Grewenig, Bruhn,
/// Weickert, "Theoretical foundations of Gaussian convolution by extended box filtering",
/// SSVM 2011), on premultiplied floats.
///
/// An extended box of radius `r + alpha` weighs the `2r + 1` central pixels 1 and the two next
/// ones `alpha` (0 <= alpha < 1). Its variance is
/// `(r (r + 1) (2r + 1) / 3 + 2 alpha (r + 1)^2) / (2r + 1 + 2 alpha)`; three passes add their
/// variances, so `r` and `alpha` are solved for a third of `sigma^2` each and the blur has
/// exactly the variance of the Gaussian it stands for. Each pass costs O(1) per pixel whatever
/// the radius (a running sum).
///
/// Edges are mirrored (`... 2 1 0 | 0 1 2 ...`): a blur over a mirrored signal keeps its sum, so
/// the mean of the image is preserved (up to rounding to 8 bits), and a mirrored signal stays
/// mirrored after each pass, so the padding is exact for any radius, even one wider than the image.
struct GaussianBlurKernel {
    /// The integer part of the box radius.
    let radius: Int
    /// The weight of the two outermost taps.
    let edgeWeight: Float
    /// `1 / (2 radius + 1 + 2 edgeWeight)`.
    let normalization: Float
    /// Passes per direction.
    static let passes = 3

    /// The kernel for a Gaussian of standard deviation `sigma` (> 0).
    init(sigma: Double) {
        let variance = sigma * sigma / Double(Self.passes)
        // The widest plain box (alpha = 0) whose variance r (r + 1) / 3 is at most `variance`.
        var r = Int(((1 + 12 * variance).squareRoot() - 1) / 2)
        while Double(r * (r + 1)) / 3 > variance, r > 0 { r -= 1 }
        while Double((r + 1) * (r + 2)) / 3 <= variance { r += 1 }
        let rd = Double(r)
        let alpha = (2 * rd + 1) * (variance - rd * (rd + 1) / 3) / (2 * ((rd + 1) * (rd + 1) - variance))
        self.radius = r
        self.edgeWeight = Float(min(max(alpha, 0), 1))
        self.normalization = Float(1 / (2 * rd + 1 + 2 * min(max(alpha, 0), 1)))
    }

    /// The padding each side a pass reads: `radius + 1`.
    var padding: Int { radius + 1 }

    /// Blurs `bitmap`.
    ///
    /// Rows are blurred horizontally one at a time. The three vertical passes then run as a
    /// cascade of streaming stages, each holding only a ring of `2 radius + 4` rows and a row of
    /// running sums, so the whole blur touches a few megabytes for usual radii however large
    /// the image is. Images shorter than three such rings take a simpler path through one
    /// full-size float buffer (16 bytes per pixel), which then costs less memory.
    /// - Parameter forceBuffered: Take the full-buffer path whatever the height (for tests).
    func apply(to bitmap: Bitmap, forceBuffered: Bool = false) throws -> Bitmap {
        let width = bitmap.width
        let height = bitmap.height
        guard width > 0, height > 0 else { return bitmap }
        let rowBytes = width * 4
        let horizontal = HorizontalBlur(kernel: self, width: width)
        defer { horizontal.deallocate() }
        let bytes = [UInt8](unsafeUninitializedCapacity: rowBytes * height) { buffer, initialized in
            let out = UnsafeMutableRawPointer(buffer.baseAddress!)
            bitmap.bytes.withUnsafeBytes { src in
                let input = src.baseAddress!
                // Streaming holds three rings of 2 radius + 4 rows; take it when that is less
                // than the one full-size buffer of the other path.
                if height >= 3 * (2 * radius + 4), !forceBuffered {
                    streamVertical(width: width, height: height, output: out) { y, target in
                        horizontal.blur(input + y * bitmap.bytesPerRow, into: target)
                    }
                } else {
                    bufferedVertical(width: width, height: height, output: out) { y, target in
                        horizontal.blur(input + y * bitmap.bytesPerRow, into: target)
                    }
                }
            }
            initialized = rowBytes * height
        }
        return try Bitmap(width: width, height: height, bytes: bytes, hasAlpha: bitmap.hasAlpha)
    }

    /// The horizontal passes of one row, with two padded row buffers.
    private struct HorizontalBlur {
        let kernel: GaussianBlurKernel
        let width: Int
        let rowA: UnsafeMutablePointer<SIMD4<Float>>
        let rowB: UnsafeMutablePointer<SIMD4<Float>>

        init(kernel: GaussianBlurKernel, width: Int) {
            self.kernel = kernel
            self.width = width
            let length = width + 2 * kernel.padding
            rowA = .allocate(capacity: length)
            rowB = .allocate(capacity: length)
        }

        func deallocate() {
            rowA.deallocate()
            rowB.deallocate()
        }

        /// Premultiplies the RGBA8 row at `source` and blurs it into `target` (`width` pixels).
        func blur(_ source: UnsafeRawPointer, into target: UnsafeMutablePointer<SIMD4<Float>>) {
            let pad = kernel.padding
            PremultipliedPixel.loadRow(source, count: width, into: rowA + pad)
            var input = rowA
            var output = rowB
            for pass in 0..<GaussianBlurKernel.passes {
                GaussianBlurKernel.mirrorPadding(input, count: width, padding: pad, stride: 1)
                let last = pass == GaussianBlurKernel.passes - 1
                kernel.boxPass(input + pad, count: width, into: last ? target : output + pad)
                swap(&input, &output)
            }
        }
    }

    /// One vertical pass as a streaming stage: rows come in top to bottom into a ring, and each
    /// output row leaves as soon as the rows it needs are in.
    private struct VerticalStage {
        let kernel: GaussianBlurKernel
        let width: Int
        let height: Int
        let capacity: Int
        let ring: UnsafeMutablePointer<SIMD4<Float>>
        let sums: UnsafeMutablePointer<SIMD4<Float>>
        /// Input rows received, output rows emitted.
        var received = 0
        var emitted = 0

        init(kernel: GaussianBlurKernel, width: Int, height: Int) {
            self.kernel = kernel
            self.width = width
            self.height = height
            capacity = 2 * kernel.radius + 4
            ring = .allocate(capacity: capacity * width)
            sums = .allocate(capacity: width)
        }

        func deallocate() {
            ring.deallocate()
            sums.deallocate()
        }

        /// Where the next input row goes.
        var nextInput: UnsafeMutablePointer<SIMD4<Float>> { ring + (received % capacity) * width }

        /// Input row `index` (mirrored into 0..<height; height > radius + 1 holds here).
        private func row(_ index: Int) -> UnsafeMutablePointer<SIMD4<Float>> {
            let mirrored = index < 0 ? -1 - index : (index >= height ? 2 * height - 1 - index : index)
            return ring + (mirrored % capacity) * width
        }

        /// Whether the next output row's inputs are all in.
        var canEmit: Bool {
            emitted < height && received >= min(emitted + kernel.radius + 2, height)
        }

        /// Writes the next output row to `target`.
        mutating func emit(into target: UnsafeMutablePointer<SIMD4<Float>>) {
            let r = kernel.radius
            let y = emitted
            if y == 0 {
                for x in 0..<width { sums[x] = .zero }
                for k in -r...r {
                    let source = row(k)
                    for x in 0..<width { sums[x] += source[x] }
                }
            }
            let before = row(y - r - 1)
            let after = row(y + r + 1)
            let leaving = row(y - r)
            let alpha = kernel.edgeWeight
            let norm = kernel.normalization
            for x in 0..<width {
                let entering = after[x]
                target[x] = (sums[x] + (before[x] + entering) * alpha) * norm
                sums[x] += entering - leaving[x]
            }
            emitted += 1
        }
    }

    /// Vertical passes as three streaming stages; `row(y, target)` supplies horizontally
    /// blurred row `y`. Needs `height >= 2 radius + 4`.
    private func streamVertical(
        width: Int, height: Int, output: UnsafeMutableRawPointer,
        row: (Int, UnsafeMutablePointer<SIMD4<Float>>) -> Void
    ) {
        var stages = (0..<Self.passes).map { _ in VerticalStage(kernel: self, width: width, height: height) }
        defer { stages.forEach { $0.deallocate() } }
        let last = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: width)
        defer { last.deallocate() }
        let rowBytes = width * 4
        var written = 0
        for y in 0..<height {
            row(y, stages[0].nextInput)
            stages[0].received += 1
            // Push rows down the cascade as far as they can go.
            var progressed = true
            while progressed {
                progressed = false
                for index in 0..<stages.count where stages[index].canEmit {
                    if index + 1 < stages.count {
                        stages[index].emit(into: stages[index + 1].nextInput)
                        stages[index + 1].received += 1
                    } else {
                        stages[index].emit(into: last)
                        PremultipliedPixel.storeRow(last, count: width, into: output + written * rowBytes)
                        written += 1
                    }
                    progressed = true
                }
            }
        }
    }

    /// Vertical passes over one full-size buffer, in strips of columns (for short images).
    private func bufferedVertical(
        width: Int, height: Int, output: UnsafeMutableRawPointer,
        row: (Int, UnsafeMutablePointer<SIMD4<Float>>) -> Void
    ) {
        let pad = padding
        let intermediate = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: width * height)
        defer { intermediate.deallocate() }
        for y in 0..<height { row(y, intermediate + y * width) }
        let stripWidth = min(width, 32)
        let columnLength = height + 2 * pad
        let stripA = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: columnLength * stripWidth)
        defer { stripA.deallocate() }
        let stripB = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: columnLength * stripWidth)
        defer { stripB.deallocate() }
        let sums = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: stripWidth)
        defer { sums.deallocate() }
        let rowBytes = width * 4
        var x0 = 0
        while x0 < width {
            let columns = min(stripWidth, width - x0)
            for y in 0..<height {
                (stripA + (pad + y) * columns).update(from: intermediate + y * width + x0, count: columns)
            }
            var input = stripA
            var result = stripB
            for _ in 0..<Self.passes {
                Self.mirrorPadding(input, count: height, padding: pad, stride: columns)
                boxPassColumns(input + pad * columns, rows: height, columns: columns, sums: sums, into: result + pad * columns)
                swap(&input, &result)
            }
            for y in 0..<height {
                PremultipliedPixel.storeRow(input + (pad + y) * columns, count: columns, into: output + y * rowBytes + x0 * 4)
            }
            x0 += columns
        }
    }

    /// Fills the `padding` elements before and after `count` elements (each element being
    /// `stride` pixels) with the mirror image of the signal, for any padding.
    static func mirrorPadding(_ buffer: UnsafeMutablePointer<SIMD4<Float>>, count: Int, padding: Int, stride: Int) {
        let period = 2 * count
        func source(_ index: Int) -> Int {
            var m = index % period
            if m < 0 { m += period }
            return m < count ? m : period - 1 - m
        }
        let start = buffer + padding * stride
        for k in 1...padding {
            (start + (-k) * stride).update(from: start + source(-k) * stride, count: stride)
            (start + (count - 1 + k) * stride).update(from: start + source(count - 1 + k) * stride, count: stride)
        }
    }

    /// One extended box pass over a padded row (`input[-padding ..< count + padding]` valid).
    func boxPass(_ input: UnsafeMutablePointer<SIMD4<Float>>, count: Int, into output: UnsafeMutablePointer<SIMD4<Float>>) {
        let r = radius
        let alpha = edgeWeight
        let norm = normalization
        var sum = SIMD4<Float>.zero
        for k in -r...r { sum += input[k] }
        for x in 0..<count {
            output[x] = (sum + (input[x - r - 1] + input[x + r + 1]) * alpha) * norm
            sum += input[x + r + 1] - input[x - r]
        }
    }

    /// One extended box pass down `columns` interleaved columns (row-major strip).
    private func boxPassColumns(
        _ input: UnsafeMutablePointer<SIMD4<Float>>, rows: Int, columns: Int,
        sums: UnsafeMutablePointer<SIMD4<Float>>, into output: UnsafeMutablePointer<SIMD4<Float>>
    ) {
        let r = radius
        let alpha = edgeWeight
        let norm = normalization
        for c in 0..<columns { sums[c] = .zero }
        for k in -r...r {
            let row = input + k * columns
            for c in 0..<columns { sums[c] += row[c] }
        }
        for y in 0..<rows {
            let before = input + (y - r - 1) * columns
            let after = input + (y + r + 1) * columns
            let leaving = input + (y - r) * columns
            let target = output + y * columns
            for c in 0..<columns {
                let entering = after[c]
                target[c] = (sums[c] + (before[c] + entering) * alpha) * norm
                sums[c] += entering - leaving[c]
            }
        }
    }
}
