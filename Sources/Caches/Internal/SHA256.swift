/// SHA-256 (FIPS 180-4), written in Swift because Linux has no CryptoKit.
///
/// The disk cache names its files with the hex digest of the key, so that no key can name a
/// path outside the cache directory. One-shot use: ``hexDigest(_:)``. It works on the bytes in
/// place and on the stack (no allocation but the result), since it runs on every cache read.
/// Pure and stateless: safe from any thread.
enum SHA256 {
    /// The round constants: the first 32 bits of the fractional parts of the cube roots of
    /// the first 64 primes.
    private static let k: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]

    /// The eight working words.
    private typealias State = (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32)

    /// The initial hash value: the first 32 bits of the fractional parts of the square roots
    /// of the first 8 primes.
    private static let initial: State = (0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19)

    /// The digest of a string's UTF-8 bytes as 64 lowercase hex digits.
    static func hexDigest(_ string: String) -> String {
        if let digest = string.utf8.withContiguousStorageIfAvailable({ hexDigest(UnsafeRawBufferPointer($0)) }) {
            return digest
        }
        var copy = string
        return copy.withUTF8 { hexDigest(UnsafeRawBufferPointer($0)) }
    }

    /// The digest of `bytes` as 64 lowercase hex digits.
    static func hexDigest(_ bytes: some Sequence<UInt8>) -> String {
        if let digest = bytes.withContiguousStorageIfAvailable({ hexDigest(UnsafeRawBufferPointer($0)) }) {
            return digest
        }
        return Array(bytes).withUnsafeBytes { hexDigest($0) }
    }

    /// The digest of `message` as 64 lowercase hex digits.
    static func hexDigest(_ message: UnsafeRawBufferPointer) -> String {
        let state = digest(of: message)
        let words = [state.0, state.1, state.2, state.3, state.4, state.5, state.6, state.7]
        return String(unsafeUninitializedCapacity: 64) { buffer in
            for (index, word) in words.enumerated() {
                for nibble in 0..<8 {
                    let value = UInt8(truncatingIfNeeded: word >> (28 - 4 * UInt32(nibble))) & 0x0f
                    buffer[index * 8 + nibble] = value < 10 ? 0x30 + value : 0x57 + value  // 0-9, a-f
                }
            }
            return 64
        }
    }

    /// Hashes `message`: whole 64-byte blocks straight from the input, then the padded tail
    /// (one or two blocks) from a buffer on the stack.
    private static func digest(of message: UnsafeRawBufferPointer) -> State {
        var state = initial
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { schedule in
            let wholeBlocks = message.count / 64
            for block in 0..<wholeBlocks {
                compress(UnsafeRawBufferPointer(rebasing: message[(block * 64)..<(block * 64 + 64)]), into: &state, schedule: schedule)
            }
            // Padding: 0x80, zeros, then the bit length as a big-endian 64-bit number.
            let rest = message.count - wholeBlocks * 64
            let tailLength = rest < 56 ? 64 : 128
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 128) { tail in
                tail.initialize(repeating: 0)
                for index in 0..<rest { tail[index] = message[wholeBlocks * 64 + index] }
                tail[rest] = 0x80
                let bitLength = UInt64(message.count) &* 8
                for index in 0..<8 { tail[tailLength - 1 - index] = UInt8(truncatingIfNeeded: bitLength >> (8 * UInt64(index))) }
                let tailBytes = UnsafeRawBufferPointer(tail)
                for block in 0..<(tailLength / 64) {
                    compress(UnsafeRawBufferPointer(rebasing: tailBytes[(block * 64)..<(block * 64 + 64)]), into: &state, schedule: schedule)
                }
            }
        }
        return state
    }

    @inline(__always)
    private static func rotateRight(_ value: UInt32, _ count: UInt32) -> UInt32 {
        (value >> count) | (value << (32 - count))
    }

    /// One application of the compression function to a 64-byte block.
    private static func compress(_ block: UnsafeRawBufferPointer, into state: inout State, schedule w: UnsafeMutableBufferPointer<UInt32>) {
        for t in 0..<16 {
            let offset = t * 4
            w[t] = UInt32(block[offset]) << 24 | UInt32(block[offset + 1]) << 16 | UInt32(block[offset + 2]) << 8 | UInt32(block[offset + 3])
        }
        for t in 16..<64 {
            let s0 = rotateRight(w[t - 15], 7) ^ rotateRight(w[t - 15], 18) ^ (w[t - 15] >> 3)
            let s1 = rotateRight(w[t - 2], 17) ^ rotateRight(w[t - 2], 19) ^ (w[t - 2] >> 10)
            w[t] = w[t - 16] &+ s0 &+ w[t - 7] &+ s1
        }
        var (a, b, c, d, e, f, g, h) = state
        k.withUnsafeBufferPointer { k in
            for t in 0..<64 {
                let sum1 = rotateRight(e, 6) ^ rotateRight(e, 11) ^ rotateRight(e, 25)
                let choice = (e & f) ^ (~e & g)
                let temp1 = h &+ sum1 &+ choice &+ k[t] &+ w[t]
                let sum0 = rotateRight(a, 2) ^ rotateRight(a, 13) ^ rotateRight(a, 22)
                let majority = (a & b) ^ (a & c) ^ (b & c)
                let temp2 = sum0 &+ majority
                h = g
                g = f
                f = e
                e = d &+ temp1
                d = c
                c = b
                b = a
                a = temp1 &+ temp2
            }
        }
        state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d, state.4 &+ e, state.5 &+ f, state.6 &+ g, state.7 &+ h)
    }
}
