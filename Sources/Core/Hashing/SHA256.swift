/// SHA-256 (FIPS 180-4), written in Swift because Linux has no CryptoKit and the package has no
/// dependencies.
///
/// One shot: `SHA256.hash(key.utf8).hexString`. Streaming: make a hasher, ``update(_:)`` it
/// with the pieces in order, then ``finalize()``; the digest is the same as one shot over the
/// pieces joined, however they are cut.
///
/// ```swift
/// var hasher = SHA256()
/// hasher.update("domain".utf8)
/// hasher.update(head)
/// let identifier = hasher.finalize().hexString
/// ```
///
/// Uses: `DiskCache` names its files with the hex digest of the key (so no key can name a
/// path outside the cache directory), the Photos plug-in fingerprints files into asset
/// identifiers. It runs on every disk cache read, so it allocates nothing but the result: the
/// state and a partial block live in the value, the message schedule on the stack, and whole
/// blocks are read straight from the caller's bytes.
///
/// A value type with no shared state: a hasher is safe to use from any thread, one at a time,
/// and copying it forks the hash (both copies continue from the same point).
public struct SHA256: Sendable {
    /// The eight working words.
    typealias Words = (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32)
    /// 64 bytes of storage for a partial block.
    private typealias Block = (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)

    /// The initial hash value: the first 32 bits of the fractional parts of the square roots
    /// of the first 8 primes.
    private static let initialWords: Words = (0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19)

    /// The hash value after the whole blocks so far.
    private var words: Words = SHA256.initialWords
    /// The bytes of the block not yet complete (the first ``bufferedCount`` of them).
    private var buffer: Block = (0, 0, 0, 0, 0, 0, 0, 0)
    /// How many bytes ``buffer`` holds, 0 to 63.
    private var bufferedCount = 0
    /// How many bytes were fed in all.
    private var byteCount: UInt64 = 0

    /// An empty hasher: ``finalize()`` now would give the digest of no bytes.
    public init() {}

    /// The digest of `bytes`.
    ///
    /// Contiguous bytes (`Array`, `Data`, a native `String`'s `utf8`, a buffer pointer) are
    /// hashed in place; any other sequence is copied into an array first.
    public static func hash(_ bytes: some Sequence<UInt8>) -> SHA256Digest {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// Feeds `bytes`, after everything fed before.
    ///
    /// Contiguous bytes are read in place; any other sequence is copied into an array first.
    public mutating func update(_ bytes: some Sequence<UInt8>) {
        let done: Void? = bytes.withContiguousStorageIfAvailable { absorb(UnsafeRawBufferPointer($0)) }
        if done == nil {
            Array(bytes).withUnsafeBytes { absorb($0) }
        }
    }

    /// The digest of everything fed so far.
    ///
    /// Does not change the hasher: feeding more and finalizing again gives the digest of the
    /// longer message.
    public func finalize() -> SHA256Digest {
        var words = self.words
        let buffered = bufferedCount
        let block = buffer
        // Padding: 0x80, zeros, then the length in bits as a big-endian 64-bit number; one
        // block when the partial block leaves room for the 9 bytes, else two.
        let tailLength = buffered < 56 ? 64 : 128
        let bitLength = byteCount &* 8
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { schedule in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 128) { tail in
                tail.initialize(repeating: 0)
                withUnsafeBytes(of: block) { partial in
                    for index in 0..<buffered { tail[index] = partial[index] }
                }
                tail[buffered] = 0x80
                for index in 0..<8 {
                    tail[tailLength - 1 - index] = UInt8(truncatingIfNeeded: bitLength >> (8 * UInt64(index)))
                }
                let tailBytes = UnsafeRawBufferPointer(tail)
                for start in stride(from: 0, to: tailLength, by: 64) {
                    Self.compress(UnsafeRawBufferPointer(rebasing: tailBytes[start..<(start + 64)]), into: &words, schedule: schedule)
                }
            }
        }
        return SHA256Digest(words: words)
    }

    /// Feeds `message`: first tops up the partial block, then compresses whole blocks straight
    /// from `message`, then keeps what is left as the new partial block.
    private mutating func absorb(_ message: UnsafeRawBufferPointer) {
        guard let base = message.baseAddress, message.count > 0 else { return }
        byteCount &+= UInt64(message.count)
        var offset = 0
        var words = self.words
        var buffer = self.buffer
        var buffered = bufferedCount
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { schedule in
            if buffered > 0 {
                let take = min(64 - buffered, message.count)
                withUnsafeMutableBytes(of: &buffer) { $0.baseAddress!.advanced(by: buffered).copyMemory(from: base, byteCount: take) }
                buffered += take
                offset = take
                guard buffered == 64 else { return }
                withUnsafeBytes(of: buffer) { Self.compress($0, into: &words, schedule: schedule) }
                buffered = 0
            }
            while message.count - offset >= 64 {
                Self.compress(UnsafeRawBufferPointer(rebasing: message[offset..<(offset + 64)]), into: &words, schedule: schedule)
                offset += 64
            }
        }
        if offset < message.count {
            let rest = message.count - offset
            withUnsafeMutableBytes(of: &buffer) { $0.baseAddress!.copyMemory(from: base + offset, byteCount: rest) }
            buffered = rest
        }
        self.words = words
        self.buffer = buffer
        bufferedCount = buffered
    }
}

extension SHA256 {
    /// The round constants: the first 32 bits of the fractional parts of the cube roots of
    /// the first 64 primes.
    private static let roundConstants: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]

    @inline(__always)
    private static func rotateRight(_ value: UInt32, _ count: UInt32) -> UInt32 {
        (value >> count) | (value << (32 - count))
    }

    /// One application of the compression function to a 64-byte block.
    /// - Parameter w: Room for the 64-word message schedule (on the caller's stack).
    private static func compress(_ block: UnsafeRawBufferPointer, into state: inout Words, schedule w: UnsafeMutableBufferPointer<UInt32>) {
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
        roundConstants.withUnsafeBufferPointer { k in
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
