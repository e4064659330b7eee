/// HMAC (RFC 2104) over ``CryptoSHA1``: what thumbor's URL signatures are.
enum CryptoHMACSHA1 {
    /// The 20-byte HMAC-SHA1 of `message` under `key`.
    ///
    /// A key longer than a block (64 bytes) is hashed first, a shorter one padded with zeros,
    /// as RFC 2104 says; any key length works.
    static func authenticationCode(key: some Collection<UInt8>, message: some Collection<UInt8>) -> [UInt8] {
        var blockKey = key.count > CryptoSHA1.blockLength ? CryptoSHA1.hash(key) : Array(key)
        blockKey.append(contentsOf: repeatElement(0, count: CryptoSHA1.blockLength - blockKey.count))
        var inner = blockKey.map { $0 ^ 0x36 }
        inner.append(contentsOf: message)
        var outer = blockKey.map { $0 ^ 0x5C }
        outer.append(contentsOf: CryptoSHA1.hash(inner))
        return CryptoSHA1.hash(outer)
    }

    /// Whether `lhs` and `rhs` hold the same bytes, in time that depends only on their lengths
    /// (not on where they first differ), so a signature check leaks nothing but the length.
    static func constantTimeEqual(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var difference: UInt8 = 0
        for index in lhs.indices { difference |= lhs[index] ^ rhs[index] }
        return difference == 0
    }
}
