/// Percent-decoding the way thumbor's web framework (tornado) decodes path captures: each
/// `%` followed by two hex digits becomes that byte, anything else (a lone `%`, `+`) stays as
/// it is, and the bytes must then be UTF-8.
enum ThumborPercentDecoding {
    /// `bytes` decoded once, or `nil` when the decoded bytes are not UTF-8.
    static func decode(_ bytes: some Collection<UInt8>) -> String? {
        let source = Array(bytes)
        var decoded: [UInt8] = []
        decoded.reserveCapacity(source.count)
        var index = 0
        while index < source.count {
            if source[index] == UInt8(ascii: "%"), index + 2 < source.count,
               let high = hexValue(source[index + 1]), let low = hexValue(source[index + 2]) {
                decoded.append(high << 4 | low)
                index += 3
            } else {
                decoded.append(source[index])
                index += 1
            }
        }
        return String(validating: decoded, as: UTF8.self)
    }

    /// The value of one hex digit, or `nil`.
    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
