import WebImageCore

/// The colour of `fill(...)` and how it is given: a CSS colour name, 3 or 6 (or 8, with alpha)
/// hex digits with or without `#`, `transparent`, `auto` (the image's mean colour, as thumbor)
/// or `blur` (the image itself, blurred and stretched under it).
enum FillColor: Hashable, Sendable {
    case color(RGBAColor)
    case auto
    case blur

    /// Parses `text`.
    /// - Throws: ``ServingFailure`` `400` naming the text when it is none of the above.
    init(_ text: String) throws(ServingFailure) {
        let lowered = text.lowercased()
        switch lowered {
        case "auto": self = .auto; return
        case "blur": self = .blur; return
        case "transparent": self = .color(.clear); return
        default: break
        }
        if let named = Self.named[lowered] {
            self = .color(named)
            return
        }
        if let hex = Self.hex(lowered.hasPrefix("#") ? String(lowered.dropFirst()) : lowered) {
            self = .color(hex)
            return
        }
        throw ServingFailure(400, "fill(\(text)): not a colour (a name, hex digits, transparent, auto or blur)")
    }

    private static func hex(_ digits: String) -> RGBAColor? {
        guard [3, 6, 8].contains(digits.count), let value = UInt32(digits, radix: 16) else { return nil }
        switch digits.count {
        case 3:
            let r = UInt8((value >> 8) & 0xF), g = UInt8((value >> 4) & 0xF), b = UInt8(value & 0xF)
            return RGBAColor(red: r * 17, green: g * 17, blue: b * 17)
        case 6:
            return RGBAColor(red: UInt8((value >> 16) & 0xFF), green: UInt8((value >> 8) & 0xFF), blue: UInt8(value & 0xFF))
        default:
            return RGBAColor(red: UInt8(value >> 24), green: UInt8((value >> 16) & 0xFF), blue: UInt8((value >> 8) & 0xFF), alpha: UInt8(value & 0xFF))
        }
    }

    /// The CSS basic colours and a few common extended ones.
    private static let named: [String: RGBAColor] = [
        "black": RGBAColor(red: 0, green: 0, blue: 0),
        "white": RGBAColor(red: 255, green: 255, blue: 255),
        "red": RGBAColor(red: 255, green: 0, blue: 0),
        "lime": RGBAColor(red: 0, green: 255, blue: 0),
        "green": RGBAColor(red: 0, green: 128, blue: 0),
        "blue": RGBAColor(red: 0, green: 0, blue: 255),
        "yellow": RGBAColor(red: 255, green: 255, blue: 0),
        "cyan": RGBAColor(red: 0, green: 255, blue: 255),
        "aqua": RGBAColor(red: 0, green: 255, blue: 255),
        "magenta": RGBAColor(red: 255, green: 0, blue: 255),
        "fuchsia": RGBAColor(red: 255, green: 0, blue: 255),
        "silver": RGBAColor(red: 192, green: 192, blue: 192),
        "gray": RGBAColor(red: 128, green: 128, blue: 128),
        "grey": RGBAColor(red: 128, green: 128, blue: 128),
        "maroon": RGBAColor(red: 128, green: 0, blue: 0),
        "olive": RGBAColor(red: 128, green: 128, blue: 0),
        "purple": RGBAColor(red: 128, green: 0, blue: 128),
        "teal": RGBAColor(red: 0, green: 128, blue: 128),
        "navy": RGBAColor(red: 0, green: 0, blue: 128),
        "orange": RGBAColor(red: 255, green: 165, blue: 0),
        "pink": RGBAColor(red: 255, green: 192, blue: 203),
        "brown": RGBAColor(red: 165, green: 42, blue: 42),
    ]
}
