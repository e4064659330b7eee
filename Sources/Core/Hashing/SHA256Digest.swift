/// A SHA-256 digest: 32 bytes, made by ``SHA256``.
///
/// Compare digests as values (`Hashable`); show or store them as ``hexString`` (64 lowercase
/// hex digits, the form `sha256sum` prints) or take the ``bytes``. A short identifier is a
/// prefix of the hex string (`hexString.prefix(32)` is the first 16 bytes).
public struct SHA256Digest: Sendable, Hashable, CustomStringConvertible {
    /// The digest as four big-endian 64-bit words (bytes 0-7, 8-15, 16-23, 24-31).
    private let word0: UInt64
    private let word1: UInt64
    private let word2: UInt64
    private let word3: UInt64

    /// The digest of the final hash value `words` (H0 to H7).
    init(words: SHA256.Words) {
        word0 = UInt64(words.0) << 32 | UInt64(words.1)
        word1 = UInt64(words.2) << 32 | UInt64(words.3)
        word2 = UInt64(words.4) << 32 | UInt64(words.5)
        word3 = UInt64(words.6) << 32 | UInt64(words.7)
    }

    /// The 32 bytes of the digest, in order.
    public var bytes: [UInt8] {
        [UInt8](unsafeUninitializedCapacity: 32) { buffer, initialized in
            for (index, word) in [word0, word1, word2, word3].enumerated() {
                for byte in 0..<8 {
                    buffer[index * 8 + byte] = UInt8(truncatingIfNeeded: word >> (56 - 8 * UInt64(byte)))
                }
            }
            initialized = 32
        }
    }

    /// The digest as 64 lowercase hex digits.
    public var hexString: String {
        String(unsafeUninitializedCapacity: 64) { buffer in
            for (index, word) in [word0, word1, word2, word3].enumerated() {
                for nibble in 0..<16 {
                    let value = UInt8(truncatingIfNeeded: word >> (60 - 4 * UInt64(nibble))) & 0x0f
                    buffer[index * 16 + nibble] = value < 10 ? 0x30 + value : 0x57 + value  // 0-9, a-f
                }
            }
            return 64
        }
    }

    /// ``hexString``.
    public var description: String { hexString }
}
