import WebImageCore

/// How the built-in transformers spell their keys.
///
/// A key is `TypeName(part,part,...)`: the transformer's type name, then its parameters in a
/// fixed order, separated by commas with no spaces. Each part has one spelling:
/// - integers in decimal (`400`, `-3`); sizes as `WxH` (`400x300`);
/// - floating-point numbers with exactly six decimals (`8.000000`, `-0.785398`). Transformers
///   round their floating-point parameters to six decimals when they are created, so the key
///   says exactly what the transformer does: equal keys, equal work;
/// - colors as `#RRGGBBAA` in upper-case hexadecimal (`#FF0000FF`);
/// - booleans as `1` or `0` (SDWebImage's spelling);
/// - enumerations by their case name (`aspectFill`, `lanczos3`, `multiply`).
enum TransformerKeyFormat {
    /// The number of decimals kept and printed.
    static let decimals = 6
    private static let factor = 1_000_000.0

    /// `value` rounded to six decimals (values too large to round, and non-finite ones, are
    /// returned unchanged; the transformers reject non-finite values when they run).
    static func quantize(_ value: Double) -> Double {
        guard value.isFinite, abs(value) < 1e12 else { return value }
        let rounded = (value * factor).rounded() / factor
        return rounded == 0 ? 0 : rounded  // no negative zero
    }

    /// `value` with exactly six decimals, locale-free: `8.000000`, `-0.500000`.
    static func format(_ value: Double) -> String {
        guard value.isFinite, abs(value) < 1e12 else { return "\(value)" }
        let micros = Int64((value * factor).rounded())
        if micros == 0 { return "0.000000" }
        let sign = micros < 0 ? "-" : ""
        let magnitude = micros.magnitude
        let whole = magnitude / 1_000_000
        let fraction = String(magnitude % 1_000_000)
        return "\(sign)\(whole).\(String(repeating: "0", count: decimals - fraction.count))\(fraction)"
    }

    /// `#RRGGBBAA`.
    static func format(_ color: RGBAColor) -> String {
        "#" + [color.red, color.green, color.blue, color.alpha].map(hex).joined()
    }

    /// `1` or `0`.
    static func format(_ flag: Bool) -> String { flag ? "1" : "0" }

    /// `WxH`.
    static func format(_ size: PixelSize) -> String { "\(size.width)x\(size.height)" }

    /// `Name(a,b,c)`.
    static func key(_ name: String, _ parts: [String]) -> String {
        "\(name)(\(parts.joined(separator: ",")))"
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }
}
