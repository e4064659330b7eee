/// GIF's variable-length LZW compression (codes up to 12 bits, LSB first), with a clear code
/// when the table is full. The string table is an open-addressed hash of (prefix code, byte).
enum LZWEncoder {
    /// Compresses `indices` (each < 2^minimumCodeSize).
    static func encode(_ indices: [UInt8], minimumCodeSize: Int) -> [UInt8] {
        let clear = 1 << minimumCodeSize
        let endOfInformation = clear + 1
        let tableSize = 5003
        var keys = [Int32](repeating: -1, count: tableSize)
        var codes = [Int16](repeating: 0, count: tableSize)
        var output: [UInt8] = []
        output.reserveCapacity(indices.count / 2 + 16)
        var bits: UInt64 = 0
        var bitCount = 0
        var codeSize = minimumCodeSize + 1
        var next = clear + 2

        func emit(_ code: Int) {
            bits |= UInt64(code) << UInt64(bitCount)
            bitCount += codeSize
            while bitCount >= 8 {
                output.append(UInt8(truncatingIfNeeded: bits))
                bits >>= 8
                bitCount -= 8
            }
        }

        emit(clear)
        guard var current = indices.first.map(Int.init) else {
            emit(endOfInformation)
            if bitCount > 0 { output.append(UInt8(truncatingIfNeeded: bits)) }
            return output
        }
        for byte in indices.dropFirst() {
            let key = Int32(current << 8 | Int(byte))
            var slot = Int(key) % tableSize
            var found = -1
            while keys[slot] != -1 {
                if keys[slot] == key {
                    found = Int(codes[slot])
                    break
                }
                slot = slot == 0 ? tableSize - 1 : slot - 1
            }
            if found >= 0 {
                current = found
                continue
            }
            emit(current)
            if next < 4096 {
                keys[slot] = key
                codes[slot] = Int16(next)
                next += 1
                if next > 1 << codeSize && codeSize < 12 { codeSize += 1 }
            } else {
                emit(clear)
                keys.withUnsafeMutableBufferPointer { $0.update(repeating: -1) }
                codeSize = minimumCodeSize + 1
                next = clear + 2
            }
            current = Int(byte)
        }
        emit(current)
        emit(endOfInformation)
        if bitCount > 0 { output.append(UInt8(truncatingIfNeeded: bits)) }
        return output
    }
}
