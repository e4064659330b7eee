/// URL-safe base64 (RFC 4648 section 5: `-` and `_` in place of `+` and `/`, with `=`
/// padding), which is how thumbor writes its signatures.
enum ThumborBase64 {
    /// The 64 digits of the URL-safe alphabet, in value order.
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// The URL-safe base64 of `bytes` as ASCII bytes, padded with `=` to a multiple of 4.
    static func urlSafeEncoded(_ bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let remaining = bytes.count - index
            let first = UInt32(bytes[index])
            let second = remaining > 1 ? UInt32(bytes[index + 1]) : 0
            let third = remaining > 2 ? UInt32(bytes[index + 2]) : 0
            let group = first << 16 | second << 8 | third
            output.append(alphabet[Int(group >> 18 & 0x3F)])
            output.append(alphabet[Int(group >> 12 & 0x3F)])
            output.append(remaining > 1 ? alphabet[Int(group >> 6 & 0x3F)] : UInt8(ascii: "="))
            output.append(remaining > 2 ? alphabet[Int(group & 0x3F)] : UInt8(ascii: "="))
            index += 3
        }
        return output
    }

    /// Whether `text` has the shape of a thumbor signature: 27 URL-safe base64 digits and `=`
    /// (the encoding of a 20-byte HMAC-SHA1).
    static func isSignatureShaped(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 28, bytes[27] == UInt8(ascii: "=") else { return false }
        return bytes[0..<27].allSatisfy { alphabet.contains($0) }
    }
}
