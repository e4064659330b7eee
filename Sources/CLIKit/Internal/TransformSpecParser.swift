import SwiftWebImage

/// Reads the argument of one spec; every failure names the spec and its expected form.
struct TransformSpecParser {
    let spec: String
    let name: String
    let argument: String?

    private func bad(_ form: String, _ detail: String? = nil) -> CLIError {
        .usage("bad transform '\(spec)'\(detail.map { ": \($0)" } ?? ""); expected \(form)")
    }

    /// The `:`-separated parts of the argument; the first must be present.
    private func parts(_ form: String) throws(CLIError) -> [String] {
        guard let argument, !argument.isEmpty else { throw bad(form, "\(name) needs a value") }
        return argument.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
    }

    private func number(_ text: String, in range: ClosedRange<Double>, _ form: String) throws(CLIError) -> Double {
        guard let value = Double(text), value.isFinite else { throw bad(form, "'\(text)' is not a number") }
        guard range.contains(value) else { throw bad(form, "\(text) is outside \(Self.describe(range))") }
        return value
    }

    private static func describe(_ range: ClosedRange<Double>) -> String {
        func text(_ value: Double) -> String {
            value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
        }
        return range.upperBound == .greatestFiniteMagnitude ? "\(text(range.lowerBound)) and up" : "\(text(range.lowerBound))...\(text(range.upperBound))"
    }

    func noArgument() throws(CLIError) {
        guard argument == nil else { throw bad(name, "\(name) takes no value") }
    }

    func singleNumber(in range: ClosedRange<Double>, form: String) throws(CLIError) -> Double {
        let parts = try parts(form)
        guard parts.count == 1 else { throw bad(form) }
        return try number(parts[0], in: range, form)
    }

    func resize() throws(CLIError) -> any ImageTransformer {
        let form = "resize=WxH[:fill|aspectFit|aspectFill][:lanczos3|bicubic|bilinear|box|nearest]"
        let parts = try parts(form)
        guard let size = TransformSpec.pixelSize(parts[0]) else { throw bad(form, "'\(parts[0])' is not a size like 400x300") }
        var mode: ResizingTransformer.ScaleMode?
        var filter: ResamplingFilter?
        for part in parts.dropFirst() {
            let lowered = part.lowercased()
            if let found = ResizingTransformer.ScaleMode.allCases.first(where: { $0.rawValue.lowercased() == lowered }), mode == nil {
                mode = found
            } else if let found = ResamplingFilter.allCases.first(where: { $0.rawValue == lowered }), filter == nil {
                filter = found
            } else {
                throw bad(form, "'\(part)' is not a mode or filter (or is given twice)")
            }
        }
        return .resize(to: size, mode: mode ?? .fill, filter: filter ?? .lanczos3)
    }

    func crop() throws(CLIError) -> any ImageTransformer {
        let form = "crop=X,Y,W,H[:strict]"
        let parts = try parts(form)
        guard parts.count <= 2 else { throw bad(form) }
        let numbers = parts[0].split(separator: ",", omittingEmptySubsequences: false).map { Int($0.trimmingWhitespace()) }
        guard numbers.count == 4, let x = numbers[0], let y = numbers[1], let width = numbers[2], let height = numbers[3] else {
            throw bad(form, "'\(parts[0])' is not four whole numbers")
        }
        guard width >= 1, height >= 1 else { throw bad(form, "the width and height must be at least 1") }
        var bounds = CroppingTransformer.Bounds.clamp
        if parts.count == 2 {
            guard let found = CroppingTransformer.Bounds.allCases.first(where: { $0.rawValue == parts[1].lowercased() }) else {
                throw bad(form, "'\(parts[1])' is not strict or clamp")
            }
            bounds = found
        }
        return .crop(to: PixelRect(x: x, y: y, width: width, height: height), bounds: bounds)
    }

    func flip() throws(CLIError) -> any ImageTransformer {
        let form = "flip=h|v|hv"
        let parts = try parts(form)
        guard parts.count == 1 else { throw bad(form) }
        switch parts[0].lowercased() {
        case "h", "horizontal": return .flip(horizontal: true)
        case "v", "vertical": return .flip(vertical: true)
        case "hv", "vh", "both": return .flip(horizontal: true, vertical: true)
        default: throw bad(form, "'\(parts[0])' is not h, v or hv")
        }
    }

    func rotate() throws(CLIError) -> any ImageTransformer {
        let form = "rotate=DEGREES[:nofit]"
        let parts = try parts(form)
        guard parts.count <= 2 else { throw bad(form) }
        let degrees = try number(parts[0], in: -1e6...1e6, form)
        var fit = true
        if parts.count == 2 {
            guard parts[1].lowercased() == "nofit" else { throw bad(form, "'\(parts[1])' is not nofit") }
            fit = false
        }
        return .rotate(degrees: degrees, fitSize: fit)
    }

    func round() throws(CLIError) -> any ImageTransformer {
        let form = "round=RADIUS[:border=W][:color=#RRGGBB[AA]][:corners=tl+tr+bl+br]"
        let parts = try parts(form)
        let radius = try number(parts[0], in: 0...Double.greatestFiniteMagnitude, form)
        var border = 0.0
        var color = RGBAColor.black
        var corners = RoundCornerTransformer.Corners.all
        var seen: Set<String> = []
        for part in parts.dropFirst() {
            let pair = part.split(separator: "=", maxSplits: 1).map(String.init)
            guard pair.count == 2, seen.insert(pair[0].lowercased()).inserted else { throw bad(form, "'\(part)' is not border=W, color=#hex or corners=...") }
            switch pair[0].lowercased() {
            case "border":
                border = try number(pair[1], in: 0...Double.greatestFiniteMagnitude, form)
            case "color":
                guard let parsed = TransformSpec.color(pair[1]) else { throw bad(form, "'\(pair[1])' is not a color like #RRGGBB or #RRGGBBAA") }
                color = parsed
            case "corners":
                corners = []
                for corner in pair[1].lowercased().split(separator: "+", omittingEmptySubsequences: false) {
                    switch corner {
                    case "tl": corners.insert(.topLeft)
                    case "tr": corners.insert(.topRight)
                    case "bl": corners.insert(.bottomLeft)
                    case "br": corners.insert(.bottomRight)
                    case "all": corners.formUnion(.all)
                    default: throw bad(form, "'\(corner)' is not a corner (tl, tr, bl, br, all)")
                    }
                }
            default:
                throw bad(form, "'\(part)' is not border=W, color=#hex or corners=...")
            }
        }
        return .roundCorner(radius: radius, corners: corners, borderWidth: border, borderColor: color)
    }

    func blur() throws(CLIError) -> any ImageTransformer {
        let form = "blur=RADIUS (0...1000)"
        return .blur(radius: try singleNumber(in: 0...BlurTransformer.maximumRadius, form: form))
    }

    func tint() throws(CLIError) -> any ImageTransformer {
        let form = "tint=#RRGGBB[AA][:sourceIn|sourceAtop|multiply|screen|overlay|darken|lighten]"
        let parts = try parts(form)
        guard parts.count <= 2 else { throw bad(form) }
        guard let color = TransformSpec.color(parts[0]) else { throw bad(form, "'\(parts[0])' is not a color like #RRGGBB or #RRGGBBAA") }
        var mode = TintTransformer.BlendMode.sourceIn
        if parts.count == 2 {
            guard let found = TintTransformer.BlendMode.allCases.first(where: { $0.rawValue.lowercased() == parts[1].lowercased() }) else {
                throw bad(form, "'\(parts[1])' is not a blend mode")
            }
            mode = found
        }
        return .tint(color, mode: mode)
    }
}
