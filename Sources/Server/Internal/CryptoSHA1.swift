/// SHA-1 (FIPS 180-4), written here because Linux has no CryptoKit and the package takes no
/// dependencies. Only HMAC-SHA1 uses it: thumbor signs its URLs with HMAC-SHA1, so the server
/// must compute it to check them. SHA-1 is not collision resistant, but HMAC-SHA1 is still a
/// sound MAC, and it is what thumbor's URLs carry.
///
/// One shot over bytes held in memory (URL paths and keys are short), no streaming.
enum CryptoSHA1 {
    /// The length of a digest in bytes.
    static let digestLength = 20
    /// The length of a block in bytes (what HMAC pads its key to).
    static let blockLength = 64

    /// The 20-byte digest of `message`.
    static func hash(_ message: some Collection<UInt8>) -> [UInt8] {
        var state: (UInt32, UInt32, UInt32, UInt32, UInt32) = (0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0)
        // The message, 0x80, zeros to 56 mod 64, then the length in bits, big-endian.
        var padded = Array(message)
        let bitLength = UInt64(padded.count) &* 8
        padded.append(0x80)
        while padded.count % blockLength != 56 { padded.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) {
            padded.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift)))
        }
        var schedule = [UInt32](repeating: 0, count: 80)
        for blockStart in stride(from: 0, to: padded.count, by: blockLength) {
            for t in 0..<16 {
                let offset = blockStart + t * 4
                schedule[t] = UInt32(padded[offset]) << 24 | UInt32(padded[offset + 1]) << 16 | UInt32(padded[offset + 2]) << 8 | UInt32(padded[offset + 3])
            }
            for t in 16..<80 {
                schedule[t] = rotateLeft(schedule[t - 3] ^ schedule[t - 8] ^ schedule[t - 14] ^ schedule[t - 16], 1)
            }
            var (a, b, c, d, e) = state
            for t in 0..<80 {
                let mixed: UInt32
                let constant: UInt32
                switch t {
                case 0..<20:
                    mixed = (b & c) | (~b & d)
                    constant = 0x5A82_7999
                case 20..<40:
                    mixed = b ^ c ^ d
                    constant = 0x6ED9_EBA1
                case 40..<60:
                    mixed = (b & c) | (b & d) | (c & d)
                    constant = 0x8F1B_BCDC
                default:
                    mixed = b ^ c ^ d
                    constant = 0xCA62_C1D6
                }
                let next = rotateLeft(a, 5) &+ mixed &+ e &+ constant &+ schedule[t]
                e = d
                d = c
                c = rotateLeft(b, 30)
                b = a
                a = next
            }
            state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d, state.4 &+ e)
        }
        var digest: [UInt8] = []
        digest.reserveCapacity(digestLength)
        for word in [state.0, state.1, state.2, state.3, state.4] {
            digest.append(UInt8(truncatingIfNeeded: word >> 24))
            digest.append(UInt8(truncatingIfNeeded: word >> 16))
            digest.append(UInt8(truncatingIfNeeded: word >> 8))
            digest.append(UInt8(truncatingIfNeeded: word))
        }
        return digest
    }

    @inline(__always)
    private static func rotateLeft(_ value: UInt32, _ count: UInt32) -> UInt32 {
        (value << count) | (value >> (32 - count))
    }
}
