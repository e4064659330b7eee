import Foundation

/// GIF's variable-length LZW compression (codes up to 12 bits, LSB first), with a clear code
/// when the table is full. The string table is an open-addressed hash of (prefix code, byte).
///
/// Streaming: indices are fed a run at a time (``append(_:)``, a row of a frame), and the
/// compressed bytes come out already cut into GIF data sub-blocks (a length byte, then up to
/// 255 bytes), moved out with ``drainBlocks(into:)`` as they fill. So an encoder holds neither a
/// frame's indices nor its whole compressed data, only the open sub-block.
struct LZWEncoder {
    private let minimumCodeSize: Int
    private let clear: Int
    private static let tableSize = 5003
    private var keys = [Int32](repeating: -1, count: LZWEncoder.tableSize)
    private var codes = [Int16](repeating: 0, count: LZWEncoder.tableSize)
    private var bits: UInt64 = 0
    private var bitCount = 0
    private var codeSize: Int
    private var next: Int
    /// The code of the string read so far, or -1 before the first index.
    private var current = -1
    /// Finished sub-blocks, then the open one: its length byte (a placeholder) at `openBlock`.
    private var blocks: [UInt8] = [0]
    private var openBlock = 0

    /// An encoder for indices each below `2^minimumCodeSize`; it starts with a clear code.
    init(minimumCodeSize: Int) {
        self.minimumCodeSize = minimumCodeSize
        self.clear = 1 << minimumCodeSize
        self.codeSize = minimumCodeSize + 1
        self.next = clear + 2
        blocks.reserveCapacity(4096)
        emit(clear)
    }

    /// Compresses `indices`, the next ones in order.
    mutating func append(_ indices: UnsafeBufferPointer<UInt8>) {
        guard !indices.isEmpty else { return }
        var start = 0
        if current < 0 {
            current = Int(indices[0])
            start = 1
        }
        let tableSize = Self.tableSize
        for position in start..<indices.count {
            let byte = indices[position]
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
    }

    /// Ends the data (the last string's code, the end-of-information code, the last bits) and
    /// closes the open sub-block; the block terminator (a zero-length block) is the caller's.
    mutating func finish() {
        if current >= 0 { emit(current) }
        current = -1
        emit(clear + 1)
        if bitCount > 0 {
            put(UInt8(truncatingIfNeeded: bits))
            bits = 0
            bitCount = 0
        }
        let length = blocks.count - openBlock - 1
        if length > 0 {
            blocks[openBlock] = UInt8(length)
            openBlock = blocks.count
            blocks.append(0)
        }
    }

    /// Appends the finished sub-blocks to `output` and forgets them.
    mutating func drainBlocks(into output: inout Data) {
        guard openBlock > 0 else { return }
        output.append(contentsOf: blocks[..<openBlock])
        blocks.removeSubrange(..<openBlock)
        openBlock = 0
    }

    private mutating func emit(_ code: Int) {
        bits |= UInt64(code) << UInt64(bitCount)
        bitCount += codeSize
        while bitCount >= 8 {
            put(UInt8(truncatingIfNeeded: bits))
            bits >>= 8
            bitCount -= 8
        }
    }

    @inline(__always)
    private mutating func put(_ byte: UInt8) {
        blocks.append(byte)
        if blocks.count - openBlock == 256 {  // the length byte and 255 data bytes
            blocks[openBlock] = 255
            openBlock = blocks.count
            blocks.append(0)
        }
    }
}
