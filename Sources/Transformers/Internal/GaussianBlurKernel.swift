import Foundation
import WebImageCore

/// A Gaussian blur made of plain box blurs of odd integer widths (three per direction from
/// sigma 10, four below), summed exactly in `Int32` lanes on premultiplied pixels.
///
/// Boxes of widths `w1...wn` add their variances `(w^2 - 1) / 12`; by the central limit theorem
/// their succession approaches the Gaussian of that variance. The widths are chosen, among odd
/// widths near `sqrt(12 sigma^2 / n + 1)` whose combined standard deviation is within 2% of
/// sigma (3% below sigma 5), as the ones whose response to a single pixel is closest to the
/// normalized sampled Gaussian (largest difference of one tap). Each pass costs two integer
/// additions per pixel whatever the radius (a running sum), and integer sums are exact: no
/// drift along a row, and every color sum stays within `0...alpha sum`, so unpremultiplying
/// needs no clamp.
///
/// Values grow by the box width at each pass; when the next pass could overflow `Int32`, a pass
/// shifts its output right (sums of up to 2^31 keep far more than 8 bits of precision). Between
/// the directions the rows are rescaled to `65025 x 2^e` (a few bits more than the input).
///
/// Edges are mirrored (`... 2 1 0 | 0 1 2 ...`) before every pass: a symmetric (odd) box over a
/// mirrored signal gives a mirrored signal, so this equals blurring the infinitely mirrored
/// image, and the mean of the image is kept (up to rounding to 8 bits).
struct GaussianBlurKernel {
    /// The box widths, one pass per width in each direction (odd).
    let widths: [Int]
    /// The right shift of each pass's output (0 unless the next pass could overflow), for an
    /// input of at most 65025.
    private let horizontalShifts: [Int]
    /// The same for the vertical passes, whose input is at most `65025 x 2^verticalExtraBits`.
    private let verticalShifts: [Int]
    /// The bits of precision kept between the directions beyond 65025.
    private let verticalExtraBits: Int
    /// What the horizontal passes multiply values by.
    private let horizontalGain: Double
    /// What the whole blur multiplies premultiplied values by.
    let gain: Double

    /// The kernel for a Gaussian of standard deviation `sigma` (> 0).
    init(sigma: Double) {
        self.init(widths: Self.widths(sigma: sigma))
    }

    /// The kernel of boxes of `widths` (odd, at least 1).
    init(widths: [Int]) {
        self.widths = widths
        let limit = Int(Int32.max)
        let horizontal = Self.shifts(widths: widths, inputBound: 65025)
        // Keep extra bits between the directions while the first vertical pass cannot overflow
        // and the rescaled values stay below 2^22 (the float rounding trick's range).
        // When all the vertical passes fit without shifting, keep it so (shifts cost an
        // instruction a pixel, and the fused vertical step needs none).
        let product = widths.reduce(1, *)
        let fitsUnshifted = { (extra: Int) in product <= limit / (65025 << extra) }
        var extra = 0
        while extra < 6, 65025 << (extra + 1) < 1 << 22, (65025 << (extra + 1)) * widths[0] <= limit,
              !fitsUnshifted(0) || fitsUnshifted(extra + 1) {
            extra += 1
        }
        let vertical = Self.shifts(widths: widths, inputBound: 65025 << extra)
        horizontalShifts = horizontal.shifts
        verticalShifts = vertical.shifts
        verticalExtraBits = extra
        horizontalGain = horizontal.gain
        gain = Double(1 << extra) * vertical.gain
    }

    /// The standard deviation of the boxes together.
    var standardDeviation: Double {
        widths.map { Double($0 * $0 - 1) / 12 }.reduce(0, +).squareRoot()
    }

    /// The half-widths of the boxes.
    private var radii: [Int] { widths.map { ($0 - 1) / 2 } }

    /// The padding each side a pass reads: the largest half-width, plus one.
    private var padding: Int { (radii.max() ?? 0) + 1 }

    /// For boxes of `widths` on values of at most `inputBound`: each pass's right shift (so the
    /// next pass's sums fit in `Int32`) and the gain of all passes.
    private static func shifts(widths: [Int], inputBound: Int) -> (shifts: [Int], gain: Double) {
        let limit = Int(Int32.max)
        var bound = inputBound
        var shifts: [Int] = []
        var gain = 1.0
        for (index, width) in widths.enumerated() {
            bound *= width
            gain *= Double(width)
            var shift = 0
            if index + 1 < widths.count {
                while (bound >> shift) * widths[index + 1] > limit { shift += 1 }
            }
            shifts.append(shift)
            bound >>= shift
            gain /= Double(1 << shift)
        }
        return (shifts, gain)
    }

    // MARK: - Choosing the widths

    /// The box widths standing for a Gaussian of standard deviation `sigma` (see the type's
    /// documentation).
    static func widths(sigma: Double) -> [Int] {
        let passes = sigma < 10 ? 4 : 3
        let tolerance = sigma < 5 ? 0.03 : 0.02
        let ideal = (12 * sigma * sigma / Double(passes) + 1).squareRoot()
        let center = Int(ideal)
        let candidates = stride(from: max(1, center - 4) | 1, through: center + 5, by: 2).map { $0 }
        var best: (error: Double, widths: [Int])?
        var closest: (difference: Double, widths: [Int])?
        var combination = [Int](repeating: 0, count: passes)  // indices into candidates, non-decreasing
        while true {
            let widths = combination.map { candidates[$0] }
            let deviation = widths.map { Double($0 * $0 - 1) / 12 }.reduce(0, +).squareRoot()
            let difference = abs(deviation / sigma - 1)
            if closest == nil || difference < closest!.difference { closest = (difference, widths) }
            if difference <= tolerance {
                let error = responseError(widths: widths, sigma: sigma)
                if best == nil || error < best!.error { best = (error, widths) }
            }
            // Next non-decreasing combination.
            var position = passes - 1
            while position >= 0, combination[position] == candidates.count - 1 { position -= 1 }
            guard position >= 0 else { break }
            combination[position] += 1
            for later in (position + 1)..<passes { combination[later] = combination[position] }
        }
        return best?.widths ?? closest!.widths
    }

    /// The largest difference between the response of boxes of `widths` to a single pixel and
    /// the normalized sampled Gaussian of `sigma` (over 5 sigma, or the boxes' reach if wider).
    static func responseError(widths: [Int], sigma: Double) -> Double {
        let boxReach = widths.map { ($0 - 1) / 2 }.reduce(0, +)
        let reach = max(boxReach, Int((5 * sigma).rounded(.up)))
        var response = [Double](repeating: 0, count: 2 * reach + 1)
        response[reach] = 1
        for width in widths {
            let r = (width - 1) / 2
            // Running sums over a zero-padded copy.
            var prefix = [Double](repeating: 0, count: response.count + 1)
            for index in response.indices { prefix[index + 1] = prefix[index] + response[index] }
            for index in response.indices {
                let low = max(0, index - r)
                let high = min(response.count - 1, index + r)
                response[index] = (prefix[high + 1] - prefix[low]) / Double(width)
            }
        }
        let gaussian = (-reach...reach).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
        let total = gaussian.reduce(0, +)
        return zip(response, gaussian).map { abs($0 - $1 / total) }.max() ?? 0
    }

    // MARK: - Blurring

    /// Blurs `bitmap`.
    ///
    /// Rows are blurred horizontally one at a time. The vertical passes then run as a cascade
    /// of streaming stages, each holding only a ring of `w + 3` rows and a row of running sums,
    /// so the blur touches a few megabytes for usual radii however tall the image is. Images
    /// shorter than those rings together take a path through one full-size buffer (16 bytes
    /// per pixel), which then costs less memory.
    /// - Parameter forceBuffered: Take the full-buffer path whatever the height (for tests).
    func apply(to bitmap: Bitmap, forceBuffered: Bool = false) throws -> Bitmap {
        let width = bitmap.width
        let height = bitmap.height
        guard width > 0, height > 0 else { return bitmap }
        let rowBytes = width * 4
        let converter = BlurPixelConverter(gain: gain)
        defer { converter.deallocate() }
        let horizontal = HorizontalBlur(kernel: self, converter: converter, width: width)
        defer { horizontal.deallocate() }
        let capacities = radii.map { 2 * $0 + 4 }
        let streams = height >= capacities.reduce(0, +) && height >= (capacities.max() ?? 0) && !forceBuffered
        var cancelled = false
        let bytes = [UInt8](unsafeUninitializedCapacity: rowBytes * height) { buffer, initialized in
            let out = UnsafeMutableRawPointer(buffer.baseAddress!)
            bitmap.bytes.withUnsafeBytes { src in
                let input = src.baseAddress!
                let row = { (y: Int, target: UnsafeMutablePointer<SIMD4<Int32>>) -> Bool in
                    // A cancelled job (BlockingWorkExecutor.isCurrentJobCancelled) stops the
                    // passes between rows and throws below.
                    if BlockingWorkExecutor.isCurrentJobCancelled(beforeRow: y) {
                        cancelled = true
                        return false
                    }
                    horizontal.blur(input + y * bitmap.bytesPerRow, into: target)
                    return true
                }
                if streams {
                    streamVertical(width: width, height: height, converter: converter, output: out, row: row)
                } else {
                    bufferedVertical(width: width, height: height, converter: converter, output: out, row: row)
                }
            }
            initialized = rowBytes * height
        }
        if cancelled { throw CancellationError() }
        return try Bitmap(width: width, height: height, bytes: bytes, hasAlpha: bitmap.hasAlpha)
    }

    /// The horizontal passes of one row, with two padded row buffers.
    private struct HorizontalBlur {
        let kernel: GaussianBlurKernel
        let converter: BlurPixelConverter
        let width: Int
        let rowA: UnsafeMutablePointer<SIMD4<Int32>>
        let rowB: UnsafeMutablePointer<SIMD4<Int32>>
        /// From the horizontal sums to the vertical passes' input: `2^extra / horizontal gain`.
        let rescale: SIMD4<Float>

        init(kernel: GaussianBlurKernel, converter: BlurPixelConverter, width: Int) {
            self.kernel = kernel
            self.converter = converter
            self.width = width
            let length = width + 2 * kernel.padding
            rowA = .allocate(capacity: length)
            rowB = .allocate(capacity: length)
            rescale = SIMD4(repeating: Float(Double(1 << kernel.verticalExtraBits) / kernel.horizontalGain))
        }

        func deallocate() {
            rowA.deallocate()
            rowB.deallocate()
        }

        /// Premultiplies the RGBA8 row at `source`, blurs it, and writes it rescaled for the
        /// vertical passes into `target` (`width` pixels).
        func blur(_ source: UnsafeRawPointer, into target: UnsafeMutablePointer<SIMD4<Int32>>) {
            let pad = kernel.padding
            converter.loadRow(source, count: width, into: rowA + pad)
            var input = rowA
            var output = rowB
            for (index, width) in kernel.widths.enumerated() {
                GaussianBlurKernel.mirrorPadding(input, count: self.width, padding: pad, stride: 1)
                GaussianBlurKernel.boxPass(
                    input + pad, count: self.width, radius: (width - 1) / 2, shift: kernel.horizontalShifts[index], into: output + pad)
                swap(&input, &output)
            }
            let result = input + pad
            for x in 0..<width {
                target[x] = BlurPixelConverter.rounded(SIMD4<Float>(result[x]) * rescale)
            }
        }
    }

    /// One box pass over a padded row (`input[-radius - 1 ..< count + radius + 1]` valid):
    /// `output[x]` is the sum of `input[x - radius ... x + radius]`, shifted right by `shift`.
    static func boxPass(
        _ input: UnsafePointer<SIMD4<Int32>>, count: Int, radius: Int, shift: Int, into output: UnsafeMutablePointer<SIMD4<Int32>>
    ) {
        if shift == 0 {
            boxPass(input, count: count, radius: radius, shifting: false, by: .zero, into: output)
        } else {
            boxPass(input, count: count, radius: radius, shifting: true, by: SIMD4(repeating: Int32(shift)), into: output)
        }
    }

    /// ``boxPass(_:count:radius:shift:into:)``, specialized on whether it shifts.
    ///
    /// A running sum is a chain of dependent additions, so four parts of the row run side by side.
    @inline(__always)
    private static func boxPass(
        _ input: UnsafePointer<SIMD4<Int32>>, count: Int, radius r: Int, shifting: Bool, by shift: SIMD4<Int32>,
        into output: UnsafeMutablePointer<SIMD4<Int32>>
    ) {
        @inline(__always) func window(_ x: Int) -> SIMD4<Int32> {
            var sum = SIMD4<Int32>.zero
            for k in (x - r)...(x + r) { sum &+= input[k] }
            return sum
        }
        @inline(__always) func scaled(_ sum: SIMD4<Int32>) -> SIMD4<Int32> {
            shifting ? sum &>> shift : sum
        }
        let leaving = input - r
        let entering = input + (r + 1)
        let part = count / 4
        var start = 0
        if part >= 2 * r + 1 {
            let q1 = part, q2 = 2 * part, q3 = 3 * part
            var s0 = window(0), s1 = window(q1), s2 = window(q2), s3 = window(q3)
            for x in 0..<part {
                let d0 = entering[x] &- leaving[x]
                let d1 = entering[x &+ q1] &- leaving[x &+ q1]
                let d2 = entering[x &+ q2] &- leaving[x &+ q2]
                let d3 = entering[x &+ q3] &- leaving[x &+ q3]
                output[x] = scaled(s0)
                output[x &+ q1] = scaled(s1)
                output[x &+ q2] = scaled(s2)
                output[x &+ q3] = scaled(s3)
                s0 &+= d0
                s1 &+= d1
                s2 &+= d2
                s3 &+= d3
            }
            start = 4 * part
        }
        guard start < count else { return }
        var sum = window(start)
        for x in start..<count {
            output[x] = scaled(sum)
            sum &+= entering[x] &- leaving[x]
        }
    }

    /// One vertical pass as a streaming stage: rows come in top to bottom into a ring, and each
    /// output row leaves as soon as the rows it needs are in.
    private struct VerticalStage {
        let radius: Int
        let shift: SIMD4<Int32>
        let width: Int
        let height: Int
        let capacity: Int
        let ring: UnsafeMutablePointer<SIMD4<Int32>>
        let sums: UnsafeMutablePointer<SIMD4<Int32>>
        /// Input rows received, output rows emitted.
        var received = 0
        var emitted = 0

        init(radius: Int, shift: Int, width: Int, height: Int) {
            self.radius = radius
            self.shift = SIMD4(repeating: Int32(shift))
            self.width = width
            self.height = height
            capacity = 2 * radius + 4
            ring = .allocate(capacity: capacity * width)
            sums = .allocate(capacity: width)
        }

        func deallocate() {
            ring.deallocate()
            sums.deallocate()
        }

        /// Where the next input row goes.
        var nextInput: UnsafeMutablePointer<SIMD4<Int32>> { ring + (received % capacity) * width }

        /// Input row `index`, mirrored into `0..<height`.
        private func row(_ index: Int) -> UnsafeMutablePointer<SIMD4<Int32>> {
            ring + (GaussianBlurKernel.mirror(index, count: height) % capacity) * width
        }

        /// Whether the next output row is a steady step: the sums are running, the row entering
        /// the window is row `newest` (the row just in, or about to come in), and no row below
        /// the image is mirrored in.
        func isSteady(entering newest: Int) -> Bool {
            emitted >= 1 && emitted + radius + 1 == newest && newest < height
        }

        /// The row leaving the window at the next (steady) step, counting that step as emitted.
        mutating func takeSteadyStep() -> UnsafeMutablePointer<SIMD4<Int32>> {
            let leaving = row(emitted - radius)
            emitted += 1
            return leaving
        }

        /// Whether the next output row's inputs are all in.
        var canEmit: Bool {
            emitted < height && received >= min(emitted + radius + 2, height)
        }

        /// The next output row's sums (valid until the next call), and the rows that move the
        /// window down one row.
        private mutating func advance() -> (leaving: UnsafeMutablePointer<SIMD4<Int32>>, entering: UnsafeMutablePointer<SIMD4<Int32>>) {
            let r = radius
            let y = emitted
            if y == 0 {
                sums.update(from: row(-r), count: width)
                for k in Swift.stride(from: 1 - r, through: r, by: 1) {
                    let source = row(k)
                    for x in 0..<width { sums[x] &+= source[x] }
                }
            }
            emitted += 1
            return (row(y - r), row(y + r + 1))
        }

        /// Writes the next output row to `target`.
        mutating func emit(into target: UnsafeMutablePointer<SIMD4<Int32>>) {
            let (leaving, entering) = advance()
            let shift = self.shift
            if shift == .zero {
                for x in 0..<width {
                    let sum = sums[x]
                    target[x] = sum
                    sums[x] = sum &+ (entering[x] &- leaving[x])
                }
            } else {
                for x in 0..<width {
                    let sum = sums[x]
                    target[x] = sum &>> shift
                    sums[x] = sum &+ (entering[x] &- leaving[x])
                }
            }
        }

        /// Writes the next output row to `target` as straight RGBA8 (the last pass).
        mutating func emit(storingInto target: UnsafeMutableRawPointer, converter: BlurPixelConverter) {
            let (leaving, entering) = advance()
            @inline(__always) func next(_ x: Int) -> SIMD4<Int32> {
                let sum = sums[x]
                sums[x] = sum &+ (entering[x] &- leaving[x])
                return sum
            }
            var x = 0
            while x &+ 4 <= width {
                converter.store(next(x), next(x &+ 1), next(x &+ 2), next(x &+ 3), to: target + x &* 4)
                x &+= 4
            }
            while x < width {
                target.storeBytes(of: converter.pixel(next(x)), toByteOffset: x &* 4, as: SIMD4<UInt8>.self)
                x &+= 1
            }
        }
    }

    /// Vertical passes as streaming stages; `row(y, target)` supplies horizontally blurred row
    /// `y`, or returns `false` to stop (the output is then incomplete). Needs `height` at least
    /// every stage's ring.
    private func streamVertical(
        width: Int, height: Int, converter: BlurPixelConverter, output: UnsafeMutableRawPointer,
        row: (Int, UnsafeMutablePointer<SIMD4<Int32>>) -> Bool
    ) {
        var stages = widths.indices.map {
            VerticalStage(radius: radii[$0], shift: verticalShifts[$0], width: width, height: height)
        }
        defer { stages.forEach { $0.deallocate() } }
        let rowBytes = width * 4
        var written = 0
        let fusable = verticalShifts.allSatisfy { $0 == 0 } && (stages.count == 3 || stages.count == 4)
        for y in 0..<height {
            let newest = stages[0].nextInput
            guard row(y, newest) else { return }
            stages[0].received += 1
            if fusable, fusedStep(&stages, entering: newest, y: y, converter: converter, output: output + written * rowBytes) {
                written += 1
            }
            // Push rows down the cascade as far as they can go (after a fused step, only the
            // last input row lets more out: the rows whose windows mirror below the image).
            var progressed = true
            while progressed {
                progressed = false
                for index in stages.indices where stages[index].canEmit {
                    if index + 1 < stages.count {
                        stages[index].emit(into: stages[index + 1].nextInput)
                        stages[index + 1].received += 1
                    } else {
                        stages[index].emit(storingInto: output + written * rowBytes, converter: converter)
                        written += 1
                    }
                    progressed = true
                }
            }
        }
    }

    /// When every stage is steady (away from the top and bottom edges), one row through all the
    /// stages in a single sweep: each stage's output goes on to the next in a register (and into
    /// that stage's ring for later). Same integer sums as stage by stage. Returns false, doing
    /// nothing, when some stage is not steady.
    private func fusedStep(
        _ stages: inout [VerticalStage], entering: UnsafeMutablePointer<SIMD4<Int32>>, y: Int,
        converter: BlurPixelConverter, output: UnsafeMutableRawPointer
    ) -> Bool {
        guard stages[0].isSteady(entering: y) else { return false }
        for index in 1..<stages.count where !stages[index].isSteady(entering: stages[index].received) { return false }
        let four = stages.count == 4
        let last = stages.count - 1
        let width = stages[0].width
        let e0 = entering
        let s0 = stages[0].sums, l0 = stages[0].takeSteadyStep(), t0 = stages[1].nextInput
        let s1 = stages[1].sums, l1 = stages[1].takeSteadyStep(), t1 = stages[2].nextInput
        let s2 = four ? stages[2].sums : s1
        let l2 = four ? stages[2].takeSteadyStep() : l1
        let t2 = four ? stages[3].nextInput : t1
        let sLast = stages[last].sums, lLast = stages[last].takeSteadyStep()
        for index in 1...last { stages[index].received += 1 }
        @inline(__always) func sweep(four: Bool) {
            @inline(__always) func next(_ x: Int) -> SIMD4<Int32> {
                let a = s0[x]
                s0[x] = a &+ (e0[x] &- l0[x])
                t0[x] = a
                let b = s1[x]
                s1[x] = b &+ (a &- l1[x])
                t1[x] = b
                var v = b
                if four {
                    let c = s2[x]
                    s2[x] = c &+ (b &- l2[x])
                    t2[x] = c
                    v = c
                }
                let d = sLast[x]
                sLast[x] = d &+ (v &- lLast[x])
                return d
            }
            var x = 0
            while x &+ 4 <= width {
                converter.store(next(x), next(x &+ 1), next(x &+ 2), next(x &+ 3), to: output + x &* 4)
                x &+= 4
            }
            while x < width {
                output.storeBytes(of: converter.pixel(next(x)), toByteOffset: x &* 4, as: SIMD4<UInt8>.self)
                x &+= 1
            }
        }
        if four { sweep(four: true) } else { sweep(four: false) }
        return true
    }

    /// Vertical passes over one full-size buffer, in strips of columns (for short images);
    /// `row` as in ``streamVertical(width:height:converter:output:row:)``.
    private func bufferedVertical(
        width: Int, height: Int, converter: BlurPixelConverter, output: UnsafeMutableRawPointer,
        row: (Int, UnsafeMutablePointer<SIMD4<Int32>>) -> Bool
    ) {
        let pad = padding
        let intermediate = UnsafeMutablePointer<SIMD4<Int32>>.allocate(capacity: width * height)
        defer { intermediate.deallocate() }
        for y in 0..<height {
            guard row(y, intermediate + y * width) else { return }
        }
        let stripWidth = min(width, 32)
        let columnLength = height + 2 * pad
        let stripA = UnsafeMutablePointer<SIMD4<Int32>>.allocate(capacity: columnLength * stripWidth)
        defer { stripA.deallocate() }
        let stripB = UnsafeMutablePointer<SIMD4<Int32>>.allocate(capacity: columnLength * stripWidth)
        defer { stripB.deallocate() }
        let sums = UnsafeMutablePointer<SIMD4<Int32>>.allocate(capacity: stripWidth)
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
            for (index, boxWidth) in widths.enumerated() {
                Self.mirrorPadding(input, count: height, padding: pad, stride: columns)
                Self.boxPassColumns(
                    input + pad * columns, rows: height, columns: columns, radius: (boxWidth - 1) / 2,
                    shift: verticalShifts[index], sums: sums, into: result + pad * columns)
                swap(&input, &result)
            }
            for y in 0..<height {
                let source = input + (pad + y) * columns
                let target = output + y * rowBytes + x0 * 4
                for x in 0..<columns {
                    target.storeBytes(of: converter.pixel(source[x]), toByteOffset: x * 4, as: SIMD4<UInt8>.self)
                }
            }
            x0 += columns
        }
    }

    /// One box pass down `columns` interleaved columns (row-major strip; `radius + 1` rows of
    /// padding above and below).
    private static func boxPassColumns(
        _ input: UnsafeMutablePointer<SIMD4<Int32>>, rows: Int, columns: Int, radius r: Int, shift: Int,
        sums: UnsafeMutablePointer<SIMD4<Int32>>, into output: UnsafeMutablePointer<SIMD4<Int32>>
    ) {
        let shifts = SIMD4<Int32>(repeating: Int32(shift))
        sums.update(from: input + (-r) * columns, count: columns)
        for k in Swift.stride(from: 1 - r, through: r, by: 1) {
            let row = input + k * columns
            for c in 0..<columns { sums[c] &+= row[c] }
        }
        for y in 0..<rows {
            let leaving = input + (y - r) * columns
            let entering = input + (y + r + 1) * columns
            let target = output + y * columns
            for c in 0..<columns {
                let sum = sums[c]
                target[c] = sum &>> shifts
                sums[c] = sum &+ (entering[c] &- leaving[c])
            }
        }
    }

    // MARK: - Mirroring

    /// `index` mirrored into `0..<count` (`... 1 0 | 0 1 ... count-1 | count-1 ...`), for any index.
    @inline(__always)
    static func mirror(_ index: Int, count: Int) -> Int {
        if index >= 0, index < count { return index }
        let period = 2 * count
        var m = index % period
        if m < 0 { m += period }
        return m < count ? m : period - 1 - m
    }

    /// Fills the `padding` elements before and after `count` elements (each element being
    /// `stride` values) with the mirror image of the signal, for any padding.
    static func mirrorPadding<Element>(_ buffer: UnsafeMutablePointer<Element>, count: Int, padding: Int, stride: Int) {
        let start = buffer + padding * stride
        for k in 1...padding {
            (start + (-k) * stride).update(from: start + mirror(-k, count: count) * stride, count: stride)
            (start + (count - 1 + k) * stride).update(from: start + mirror(count - 1 + k, count: count) * stride, count: stride)
        }
    }
}
