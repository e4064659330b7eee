/// The precomputed weights of one resampling direction: for every output index, a contiguous
/// window of source indices and their normalized weights.
///
/// Coordinates: source pixel `j` covers `[j, j + 1)`; output pixel `i` has its center at
/// `(i + 0.5) * scale` in source coordinates, where `scale = inputCount / outputCount`.
/// Taps beyond an edge are clamped to the edge pixel (their weight is added to it), then the
/// weights are normalized to sum to 1 and zero weights at either end of a window are dropped.
struct ResamplingWeights {
    /// The number of output samples.
    let outputCount: Int
    /// The weights stored per output (the stride of ``weights``): the widest window.
    let stride: Int
    /// The first source index of each output's window.
    let first: [Int]
    /// The length of each output's window (<= ``stride``).
    let count: [Int]
    /// `outputCount * stride` weights; output `i`'s are at `i * stride ..< i * stride + count[i]`.
    let weights: [Float]
    /// Whether this pass copies its input unchanged (input and output counts are equal).
    let isIdentity: Bool

    init(inputCount: Int, outputCount: Int, filter: ResamplingFilter) {
        precondition(inputCount > 0 && outputCount > 0)
        let scale = Double(inputCount) / Double(outputCount)
        let filterScale = max(1, scale)
        let support = filter.support * filterScale
        // A window spans at most ceil(2 * support) + 2 pixels; one more guards against rounding.
        let maxTaps = min(inputCount, Int((2 * support).rounded(.up)) + 3)
        if inputCount == outputCount {
            // Every kernel interpolates (weight 1 at 0, 0 at other integers): the identity.
            self.outputCount = outputCount
            self.stride = 1
            self.first = Array(0..<outputCount)
            self.count = [Int](repeating: 1, count: outputCount)
            self.weights = [Float](repeating: 1, count: outputCount)
            self.isIdentity = true
            return
        }

        var first = [Int](repeating: 0, count: outputCount)
        var count = [Int](repeating: 0, count: outputCount)
        var weights = [Float](repeating: 0, count: outputCount * maxTaps)
        var window = [Double](repeating: 0, count: maxTaps)

        for i in 0..<outputCount {
            let center = (Double(i) + 0.5) * scale
            let low = Int((center - support).rounded(.down))
            let high = Int((center + support).rounded(.up))
            let clampedLow = min(max(low, 0), inputCount - 1)
            let clampedHigh = min(max(high, 0), inputCount - 1)
            let span = clampedHigh - clampedLow + 1
            for k in 0..<span { window[k] = 0 }
            var total = 0.0
            if low <= high {
                for j in low...high {
                    let w = filter.weight(at: (Double(j) + 0.5 - center) / filterScale)
                    if w == 0 { continue }
                    let index = min(max(j, 0), inputCount - 1)
                    window[index - clampedLow] += w
                    total += w
                }
            }
            if total == 0 {
                // Cannot happen for the built-in kernels (the center tap always counts), but be
                // safe: fall back to the nearest pixel.
                let nearest = min(max(Int(center), 0), inputCount - 1)
                first[i] = nearest
                count[i] = 1
                weights[i * maxTaps] = 1
                continue
            }
            var start = 0
            var end = span
            while start < end, window[start] == 0 { start += 1 }
            while end > start, window[end - 1] == 0 { end -= 1 }
            first[i] = clampedLow + start
            count[i] = end - start
            for k in start..<end {
                weights[i * maxTaps + k - start] = Float(window[k] / total)
            }
        }
        self.outputCount = outputCount
        self.stride = maxTaps
        self.first = first
        self.count = count
        self.weights = weights
        self.isIdentity = false
    }


    /// The sum over outputs of the window lengths: the multiply-adds one row of this pass costs.
    var totalTaps: Int { count.reduce(0, +) }
}
