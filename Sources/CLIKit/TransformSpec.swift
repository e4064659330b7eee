import SwiftWebImage

/// The `--transform SPEC` grammar: one spec per built-in transformer. Several `--transform`
/// options apply in the order given (a ``PipelineTransformer``).
///
/// `NAME` or `NAME=ARGUMENT[:PARAMETER]...`; names, modes and filters are case-insensitive.
/// Every value is checked here, so a bad spec is a usage error before anything loads.
enum TransformSpec {
    /// The grammar, as `webimage help convert` and the README show it.
    static let grammar = """
        TRANSFORMS (--transform SPEC, repeatable, applied in order):
          resize=WxH[:MODE][:FILTER]    exactly WxH pixels. MODE: fill (stretch, default),
                                        aspectFit (fit inside, transparent bands),
                                        aspectFill (cover, crop the overflow).
                                        FILTER: lanczos3 (default), bicubic, bilinear, box, nearest
          crop=X,Y,W,H[:strict]         keep that rectangle (pixels from the top left); the part
                                        outside the image is dropped, or with :strict refused
          flip=h|v|hv                   mirror left-right (h), top-bottom (v) or both
          rotate=DEGREES[:nofit]        counterclockwise (negative: clockwise); the canvas grows
                                        to fit unless :nofit; multiples of 90 are lossless
          round=RADIUS[:border=W][:color=#RRGGBB[AA]][:corners=tl+tr+bl+br]
                                        round the corners (all by default), optional border
          blur=RADIUS                   Gaussian blur, RADIUS = standard deviation, 0...1000 px
          tint=#RRGGBB[AA][:MODE]       MODE: sourceIn (default: fill the shape), sourceAtop,
                                        multiply, screen, overlay, darken, lighten
          grayscale | sepia | invert    color presets
          brightness=A                  -1...1 (0: unchanged)
          contrast=F                    0...10 (1: unchanged)
          saturation=S                  0...10 (0: gray, 1: unchanged)
        EXAMPLES:
          --transform resize=400x300:aspectFill --transform round=16
          --transform crop=10,10,200,200 --transform rotate=90 --transform tint=#ff000080
          --transform grayscale --transform blur=4
        """

    /// The transformer of several specs: `nil` for none, the transformer itself for one, a
    /// ``PipelineTransformer`` for more.
    /// - Throws: ``CLIError`` (usage) for the first bad spec.
    static func transformer(for specs: [String]) throws(CLIError) -> (any ImageTransformer)? {
        var transformers: [any ImageTransformer] = []
        for spec in specs { transformers.append(try parse(spec)) }
        return combined(transformers)
    }

    /// `nil`, the single transformer, or a pipeline of them.
    static func combined(_ transformers: [any ImageTransformer]) -> (any ImageTransformer)? {
        switch transformers.count {
        case 0: nil
        case 1: transformers[0]
        default: PipelineTransformer(transformers)
        }
    }

    /// Parses one spec.
    /// - Throws: ``CLIError`` (usage) naming the spec and the form it should have.
    static func parse(_ spec: String) throws(CLIError) -> any ImageTransformer {
        let trimmed = spec.trimmingWhitespace()
        let name: String
        let argument: String?
        if let equals = trimmed.firstIndex(of: "=") {
            name = String(trimmed[..<equals]).lowercased()
            argument = String(trimmed[trimmed.index(after: equals)...])
        } else {
            name = trimmed.lowercased()
            argument = nil
        }
        let parser = TransformSpecParser(spec: spec, name: name, argument: argument)
        switch name {
        case "resize": return try parser.resize()
        case "crop": return try parser.crop()
        case "flip": return try parser.flip()
        case "rotate": return try parser.rotate()
        case "round": return try parser.round()
        case "blur": return try parser.blur()
        case "tint": return try parser.tint()
        case "grayscale": try parser.noArgument(); return .grayscale
        case "sepia": try parser.noArgument(); return .sepia
        case "invert": try parser.noArgument(); return .invert
        case "brightness": return .brightness(try parser.singleNumber(in: -1...1, form: "brightness=A (-1...1)"))
        case "contrast": return .contrast(try parser.singleNumber(in: 0...10, form: "contrast=F (0...10)"))
        case "saturation": return .saturation(try parser.singleNumber(in: 0...10, form: "saturation=S (0...10)"))
        default:
            throw .usage("unknown transform '\(spec)'; known: resize, crop, flip, rotate, round, blur, tint, grayscale, sepia, invert, brightness, contrast, saturation")
        }
    }

    /// A `#RRGGBB`, `#RRGGBBAA` or `#RGB` color (the `#` is optional).
    static func color(_ text: String) -> RGBAColor? {
        var hex = Substring(text)
        if hex.hasPrefix("#") { hex = hex.dropFirst() }
        guard hex.allSatisfy(\.isHexDigit) else { return nil }
        var digits = Array(hex)
        if digits.count == 3 { digits = digits.flatMap { [$0, $0] } }
        guard digits.count == 6 || digits.count == 8 else { return nil }
        var channels: [UInt8] = []
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let value = UInt8(String(digits[index...index + 1]), radix: 16) else { return nil }
            channels.append(value)
        }
        return RGBAColor(red: channels[0], green: channels[1], blue: channels[2], alpha: channels.count == 4 ? channels[3] : 255)
    }

    /// A `WxH` size with both sides at least 1 (`x` or `X`).
    static func pixelSize(_ text: String) -> PixelSize? {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]), width >= 1, height >= 1 else { return nil }
        return PixelSize(width: width, height: height)
    }
}
