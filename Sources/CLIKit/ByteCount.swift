/// Byte counts for people, and back: `1536` is `1.5 KB`; `"10M"` is 10 MiB.
enum ByteCount {
    /// `n B` below 1 KiB, else one decimal and KB, MB or GB (powers of 1024).
    static func format(_ bytes: Int64) -> String {
        if bytes < 1024 { return "\(bytes) B" }
        let units = ["KB", "MB", "GB", "TB"]
        var value = Double(bytes) / 1024
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        let tenths = Int64((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10) \(units[unit])"
    }

    /// Parses a size: a whole number of bytes, optionally followed by `K`, `M` or `G` (powers
    /// of 1024, case-insensitive, an optional `B` or `iB` after it): `500000`, `64K`, `10MB`, `1GiB`.
    /// - Returns: `nil` for anything else, a negative number, or an overflow.
    static func parse(_ text: String) -> Int? {
        var digits = Substring(text.lowercased())
        for suffix in ["ib", "b"] where digits.hasSuffix(suffix) && digits.count > suffix.count {
            digits = digits.dropLast(suffix.count)
            break
        }
        var multiplier = 1
        if let last = digits.last, let power = ["k": 1, "m": 2, "g": 3, "t": 4][String(last)] {
            multiplier = 1 << (10 * power)
            digits = digits.dropLast()
        }
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), let value = Int(digits), value >= 0 else { return nil }
        let (product, overflow) = value.multipliedReportingOverflow(by: multiplier)
        return overflow ? nil : product
    }
}
