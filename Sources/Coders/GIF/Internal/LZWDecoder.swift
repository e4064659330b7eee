/// GIF's variable-length LZW decompression (codes of up to 12 bits, LSB first).
///
/// Corrupt codes and data that ends early stop decoding; the caller learns how many indices
/// arrived and treats the rest as missing. Never reads or writes out of bounds.
enum LZWDecoder {
    /// Decodes `input` into `output` (one palette index per pixel).
    /// - Returns: How many indices were written (`output.count` when complete).
    static func decode(_ input: UnsafeBufferPointer<UInt8>, minimumCodeSize: Int, into output: UnsafeMutableBufferPointer<UInt8>) -> Int {
        let total = output.count
        guard total > 0, let out = output.baseAddress else { return 0 }
        let clear = 1 << minimumCodeSize
        let endOfInformation = clear + 1
        var prefix = [UInt16](repeating: 0, count: 4096)
        var suffix = [UInt8](repeating: 0, count: 4096)
        var first = [UInt8](repeating: 0, count: 4096)
        var lengths = [Int](repeating: 0, count: 4096)
        for code in 0..<min(clear, 4096) {
            suffix[code] = UInt8(truncatingIfNeeded: code)
            first[code] = UInt8(truncatingIfNeeded: code)
            lengths[code] = 1
        }
        var codeSize = minimumCodeSize + 1
        var next = clear + 2
        var old = -1
        var position = 0
        var bits: UInt64 = 0
        var bitCount = 0
        var inputIndex = 0
        let inputCount = input.count

        return prefix.withUnsafeMutableBufferPointer { prefix in
            suffix.withUnsafeMutableBufferPointer { suffix in
                first.withUnsafeMutableBufferPointer { first in
                    lengths.withUnsafeMutableBufferPointer { lengths in
                        while position < total {
                            while bitCount < codeSize {
                                guard inputIndex < inputCount else { return position }
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
                            if code == endOfInformation { return position }
                            if old < 0 {
                                guard code < clear else { return position }  // must start with a literal
                                out[position] = UInt8(truncatingIfNeeded: code)
                                position += 1
                                old = code
                                continue
                            }
                            let emitted: Int
                            if code < next {
                                emitted = code
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
                                emitted = code
                            } else {
                                return position  // a code not yet defined: corrupt data
                            }
                            // Write the string of `emitted` back to front.
                            let length = lengths[emitted]
                            var cursor = emitted
                            var index = position + length - 1
                            while index >= total {
                                cursor = Int(prefix[cursor])
                                index -= 1
                            }
                            while index > position {
                                out[index] = suffix[cursor]
                                cursor = Int(prefix[cursor])
                                index -= 1
                            }
                            out[position] = suffix[cursor]
                            position = min(total, position + length)
                            old = code
                            if next == 1 << codeSize && codeSize < 12 { codeSize += 1 }
                        }
                        return position
                    }
                }
            }
        }
    }
}
