/// GIF's LZW decompression handed out a piece at a time (a row of indices per call): every
/// frame decode (full size into the canvas, or at thumbnail size) reads its indices row by row
/// without holding all of them. Corrupt codes and data that ends early stop decoding; the
/// caller treats the rest as missing. (It replaced a whole-frame decoder with the same output.)
///
/// Not thread-safe: one stream serves one frame decode.
final class LZWStream {
    private let input: [UInt8]
    private let minimumCodeSize: Int
    private let clear: Int
    private let endOfInformation: Int
    private let prefix = UnsafeMutablePointer<UInt16>.allocate(capacity: 4096)
    private let suffix = UnsafeMutablePointer<UInt8>.allocate(capacity: 4096)
    private let first = UnsafeMutablePointer<UInt8>.allocate(capacity: 4096)
    private let lengths = UnsafeMutablePointer<Int>.allocate(capacity: 4096)
    /// The string of the last code, in order; `pending..<pendingEnd` is not handed out yet.
    private let string = UnsafeMutablePointer<UInt8>.allocate(capacity: 4096)
    private var pending = 0
    private var pendingEnd = 0
    private var codeSize: Int
    private var next: Int
    private var old = -1
    private var bits: UInt64 = 0
    private var bitCount = 0
    private var inputIndex = 0
    /// Indices still allowed (the frame's width x height); strings are cut at it.
    private var remaining: Int
    private var ended = false

    /// A stream over `input` (the frame's LZW data) that gives at most `total` indices.
    init(input: [UInt8], minimumCodeSize: Int, total: Int) {
        self.input = input
        self.minimumCodeSize = minimumCodeSize
        clear = 1 << minimumCodeSize
        endOfInformation = clear + 1
        codeSize = minimumCodeSize + 1
        next = clear + 2
        remaining = max(0, total)
        prefix.initialize(repeating: 0, count: 4096)
        suffix.initialize(repeating: 0, count: 4096)
        first.initialize(repeating: 0, count: 4096)
        lengths.initialize(repeating: 0, count: 4096)
        string.initialize(repeating: 0, count: 4096)
        for code in 0..<min(clear, 4096) {
            suffix[code] = UInt8(truncatingIfNeeded: code)
            first[code] = UInt8(truncatingIfNeeded: code)
            lengths[code] = 1
        }
    }

    deinit {
        prefix.deallocate()
        suffix.deallocate()
        first.deallocate()
        lengths.deallocate()
        string.deallocate()
    }

    /// Fills `output` with the next indices.
    /// - Returns: How many were written: `output.count`, or fewer when the data ended, was
    ///   corrupt, or the total was reached.
    func read(into output: UnsafeMutableBufferPointer<UInt8>) -> Int {
        guard let out = output.baseAddress else { return 0 }
        var written = 0
        while written < output.count {
            if pending < pendingEnd {
                let count = min(pendingEnd - pending, output.count - written)
                (out + written).update(from: string + pending, count: count)
                pending += count
                written += count
                continue
            }
            guard !ended, remaining > 0, decodeCode() else {
                ended = true
                return written
            }
        }
        return written
    }

    /// Reads codes until one gives a string (put in `string`); `false` at the end of the data.
    private func decodeCode() -> Bool {
        input.withUnsafeBufferPointer { input in
            let inputCount = input.count
            while true {
                while bitCount < codeSize {
                    guard inputIndex < inputCount else { return false }
                    bits |= UInt64(input[inputIndex]) << UInt64(bitCount)
                    inputIndex += 1
                    bitCount += 8
                }
                let code = Int(bits & ((1 << UInt64(codeSize)) - 1))
                bits >>= UInt64(codeSize)
                bitCount -= codeSize

                if code == clear {
                    codeSize = minimumCodeSize + 1
                    next = clear + 2
                    old = -1
                    continue
                }
                if code == endOfInformation { return false }
                if old < 0 {
                    guard code < clear else { return false }  // must start with a literal
                    emit(code, length: 1)
                    old = code
                    return true
                }
                if code < next {
                    if next < 4096 {
                        prefix[next] = UInt16(old)
                        suffix[next] = first[code]
                        first[next] = first[old]
                        lengths[next] = lengths[old] + 1
                        next += 1
                    }
                } else if code == next && next < 4096 {
                    prefix[next] = UInt16(old)
                    suffix[next] = first[old]
                    first[next] = first[old]
                    lengths[next] = lengths[old] + 1
                    next += 1
                } else {
                    return false  // a code not yet defined: corrupt data
                }
                emit(code, length: lengths[code])
                old = code
                if next == 1 << codeSize && codeSize < 12 { codeSize += 1 }
                return true
            }
        }
    }

    /// Puts the first `min(length, remaining)` indices of `code`'s string in `string`.
    private func emit(_ code: Int, length: Int) {
        let kept = min(length, remaining)
        var cursor = code
        var index = length - 1
        while index >= kept {
            cursor = Int(prefix[cursor])
            index -= 1
        }
        while index > 0 {
            string[index] = suffix[cursor]
            cursor = Int(prefix[cursor])
            index -= 1
        }
        if kept > 0 { string[0] = suffix[cursor] }
        pending = 0
        pendingEnd = kept
        remaining -= kept
    }
}
