public import WebImageCore

/// A colour argument of thumbor's `fill(...)` and `background_color(...)` filters, read as
/// thumbor 7.8's PIL engine reads it.
///
/// thumbor passes the word to PIL as a colour, then, if PIL does not know it, with a `#` in
/// front: so a colour is a CSS colour name (any case: `red`, `DarkSlateGray`), or 3, 4, 6 or 8
/// hex digits (`fff`, `ff000080`: RGB, RGBA, RRGGBB, RRGGBBAA), or one of the words thumbor
/// treats itself: `transparent`, `auto` (the image's mean colour) and, for `fill` only, `blur`.
///
/// ```swift
/// ThumborColor("ff000080") // .rgba(RGBAColor(red: 255, green: 0, blue: 0, alpha: 128))
/// ```
public enum ThumborColor: Hashable, Sendable {
    /// A colour.
    case rgba(RGBAColor)
    /// Fully transparent (thumbor's `transparent`).
    case transparent
    /// The mean colour of the image at the time the filter runs: the integer mean (rounded
    /// down) of each of red, green and blue over all pixels, opaque (thumbor's `auto`).
    case auto
    /// A blurred copy of the image stretched to the canvas, under the image (`fill(blur)` only:
    /// thumbor blurs the image with radius 50 and resizes it to the canvas).
    case blur

    /// The colour `text` names, or `nil` when thumbor's engine would not accept it.
    public init?(_ text: String) {
        switch text {
        case "transparent": self = .transparent
        case "auto": self = .auto
        case "blur": self = .blur
        default:
            if let value = ThumborColorNames.values[text.lowercased()] {
                self = .rgba(RGBAColor(red: UInt8(value >> 16 & 0xFF), green: UInt8(value >> 8 & 0xFF), blue: UInt8(value & 0xFF)))
            } else if let color = Self.hex(text) {
                self = .rgba(color)
            } else {
                return nil
            }
        }
    }

    /// 3, 4, 6 or 8 hex digits as a colour.
    private static func hex(_ text: String) -> RGBAColor? {
        let digits = Array(text.utf8)
        guard [3, 4, 6, 8].contains(digits.count) else { return nil }
        var values: [UInt8] = []
        for digit in digits {
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): values.append(digit - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): values.append(digit - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): values.append(digit - UInt8(ascii: "A") + 10)
            default: return nil
            }
        }
        let components: [UInt8] = digits.count <= 4
            ? values.map { $0 << 4 | $0 }
            : stride(from: 0, to: values.count, by: 2).map { values[$0] << 4 | values[$0 + 1] }
        return RGBAColor(red: components[0], green: components[1], blue: components[2], alpha: components.count == 4 ? components[3] : 255)
    }
}
