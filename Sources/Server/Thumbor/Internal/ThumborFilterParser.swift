import WebImageCore

/// Parses the text of a thumbor URL's `filters:` part (percent-decoded once, without the
/// `filters:` prefix and the trailing `/`) into ``ThumborFilter`` values.
///
/// Splitting follows thumbor 7.8 (`thumbor/filters/__init__.py`): the text is cut at every
/// `):`, and a piece's name is what comes before its first `(`. Names thumbor does not know,
/// or that this server does not implement, are skipped as thumbor skips unknown names; they
/// are reported in ``Result/ignored``. A known name's arguments must have thumbor's syntax
/// (spaces around them allowed, `'quotes'` around `format`'s), and values outside the range
/// the filter means are refused, where thumbor would drop the filter silently; the error says
/// which filter and why. The pixel filters of issue 34 (`blur`, `sharpen`, `equalize`,
/// `noise`, `rgb`, `colorize`, `convolution`, `curve`) are read with thumbor's own
/// expressions instead (``ThumborArgumentPattern``): a piece they do not match is skipped and
/// reported in ``Result/ignored``, as thumbor skips it.
enum ThumborFilterParser {
    /// The filters of one URL.
    struct Result {
        /// The filters this server applies, in the URL's order.
        var filters: [ThumborFilter] = []
        /// The pieces whose names were not recognised, or whose arguments thumbor's expression
        /// for the filter does not match, as written.
        var ignored: [String] = []
        /// The regions of the `focal(...)` filters, in the URL's order.
        var focalRegions: [ThumborRequest.Crop] = []
    }

    /// thumbor's largest blur radius (`MAX_RADIUS` in `thumbor/filters/blur.py`).
    static let maximumBlurRadius = 150

    /// Filters `text` names.
    /// - Parameter path: The whole path, for error messages.
    static func parse(_ text: String, path: String) throws(WebImageError) -> Result {
        var result = Result()
        let pieces = text.split(separator: "):", omittingEmptySubsequences: false)
        for (index, rawPiece) in pieces.enumerated() {
            let piece = index == pieces.count - 1 ? String(rawPiece) : rawPiece + ")"
            let name = piece.split(separator: "(", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
            guard let kind = Kind(rawValue: name) else {
                result.ignored.append(piece)
                continue
            }
            if usesThumborSyntax(kind) {
                if let filter = try thumborSyntaxFilter(kind, piece: piece, path: path) {
                    result.filters.append(filter)
                } else {
                    result.ignored.append(piece)
                }
                continue
            }
            guard piece.hasSuffix(")"), piece.count >= name.count + 2 else {
                throw WebImageError(.invalidURL, "filter \(piece) has no closing parenthesis in \(path)")
            }
            let inside = piece.dropFirst(name.count + 1).dropLast()
            let arguments = splitArguments(inside, firstMayBeQuoted: kind.takesSource)
            var parser = ArgumentReader(filter: piece, path: path, arguments: arguments)
            if kind == .focal {
                if let region = try parser.focalRegion() { result.focalRegions.append(region) }
            } else if let filter = try parser.filter(kind) {
                result.filters.append(filter)
            }
        }
        return result
    }

    /// The arguments of `inside` (the text between a filter's parentheses), trimmed, split at
    /// commas. With `firstMayBeQuoted`, a first argument in `'quotes'` may contain commas
    /// (thumbor's `String` argument: the shortest quoted text followed by a comma or the end).
    static func splitArguments(_ inside: Substring, firstMayBeQuoted: Bool) -> [Substring] {
        guard !inside.allSatisfy(\.isWhitespace) else { return [] }
        let text = trimmed(inside)
        if firstMayBeQuoted, text.first == "'" {
            var index = text.index(after: text.startIndex)
            while index < text.endIndex {
                if text[index] == "'", text.distance(from: text.startIndex, to: index) >= 2 {
                    let rest = trimmed(text[text.index(after: index)...])
                    if rest.isEmpty { return [text[...index]] }
                    if rest.first == "," {
                        return [text[...index]] + rest.dropFirst().split(separator: ",", omittingEmptySubsequences: false).map(trimmed)
                    }
                }
                index = text.index(after: index)
            }
        }
        return inside.split(separator: ",", omittingEmptySubsequences: false).map(trimmed)
    }

    /// `text` without leading and trailing whitespace.
    private static func trimmed(_ text: Substring) -> Substring {
        var text = text
        while text.first?.isWhitespace == true { text.removeFirst() }
        while text.last?.isWhitespace == true { text.removeLast() }
        return text
    }

    /// The filter names this server implements.
    enum Kind: String {
        case format, quality, blur, grayscale, rotate, fill, upscale, brightness, contrast, saturation, stretch, focal
        case sharpen, equalize, noise, rgb, colorize, convolution, curve
        case roundCorner = "round_corner"
        case noUpscale = "no_upscale"
        case maxBytes = "max_bytes"
        case maxAge = "max_age"
        case stripExif = "strip_exif"
        case stripICC = "strip_icc"
        case backgroundColor = "background_color"
        case watermark, frame, proportion
        case extractFocal = "extract_focal"
        case autoJPG = "autojpg"

        /// Whether the first argument is an image's URL (`watermark`, `frame`).
        var takesSource: Bool { self == .watermark || self == .frame }
    }

    /// Reads one filter's arguments with thumbor's argument syntax.
    private struct ArgumentReader {
        /// The piece, for error messages.
        let filter: String
        /// The whole path, for error messages.
        let path: String
        /// The arguments, trimmed.
        let arguments: [Substring]

        /// `focal(AxB:CxD)`: a region of interest by its left, top, right and bottom edges;
        /// `nil` for one with no area, which thumbor skips.
        func focalRegion() throws(WebImageError) -> ThumborRequest.Crop? {
            try count(1...1)
            var value = arguments[0]
            if value.count >= 3, value.first == "'", value.last == "'" { value = value.dropFirst().dropLast() }
            let numbers = value.split(separator: ":", omittingEmptySubsequences: false).flatMap { $0.split(separator: "x", omittingEmptySubsequences: false) }
            let edges = numbers.compactMap { Self.digits($0) }
            guard numbers.count == 4, edges.count == 4, value.filter({ $0 == ":" }).count == 1 else { throw failure("the region must be AxB:CxD") }
            guard edges[2] >= edges[0], edges[3] >= edges[1] else { throw failure("the right and bottom edges must not be before the left and top ones") }
            guard edges[2] > edges[0], edges[3] > edges[1] else { return nil }
            return ThumborRequest.Crop(left: edges[0], top: edges[1], right: edges[2], bottom: edges[3])
        }

        /// The filter `kind` with these arguments; `nil` when thumbor treats it as absent.
        mutating func filter(_ kind: Kind) throws(WebImageError) -> ThumborFilter? {
            switch kind {
            case .focal, .blur, .sharpen, .equalize, .noise, .rgb, .colorize, .convolution, .curve:
                // Read by thumborSyntaxFilter.
                return nil
            case .grayscale, .upscale, .noUpscale, .stripExif, .stripICC, .stretch:
                try count(0...0)
                switch kind {
                case .grayscale: return .grayscale
                case .upscale: return .upscale
                case .noUpscale: return .noUpscale
                case .stripExif: return .stripExif
                case .stripICC: return .stripICC
                default: return .stretch
                }
            case .format:
                try count(1...1)
                var value = arguments[0]
                if value.count >= 3, value.first == "'", value.last == "'" { value = value.dropFirst().dropLast() }
                switch value.lowercased() {
                case "jpeg", "jpg": return .format(.jpeg)
                case "png": return .format(.png)
                case "webp": return .format(.webp)
                case "avif": return .format(.avif)
                case "gif": return .format(.gif)
                case "auto": return .format(.auto)
                case "heic", "heif": throw failure("this server does not write HEIF (use avif, webp, jpeg, png or gif)")
                default: throw failure("the format is not one of jpeg, jpg, png, webp, avif, gif, auto")
                }
            case .quality:
                try count(1...1)
                let value = try unsigned(0)
                guard value <= 100 else { throw failure("quality must be 0 to 100") }
                return .quality(value)
            case .rotate:
                try count(1...1)
                let degrees = try signed(0)
                guard degrees % 90 == 0 else { throw failure("the angle must be a multiple of 90") }
                return .rotate((degrees % 360 + 360) % 360)
            case .roundCorner:
                try count(4...5)
                let radii = arguments[0].split(separator: "|", omittingEmptySubsequences: false)
                guard radii.count <= 2, let horizontal = Self.digits(radii[0]), let vertical = radii.count == 2 ? Self.digits(radii[1]) : horizontal else {
                    throw failure("the radius must be N or N|M")
                }
                let red = try unsigned(1), green = try unsigned(2), blue = try unsigned(3)
                guard red <= 255, green <= 255, blue <= 255 else { throw failure("the colour components must be 0 to 255") }
                let transparent = arguments.count > 4 ? try boolean(4) : false
                return .roundCorner(horizontalRadius: horizontal, verticalRadius: vertical, color: RGBAColor(red: UInt8(red), green: UInt8(green), blue: UInt8(blue)), transparent: transparent)
            case .fill:
                try count(1...2)
                let color = try word(0)
                guard ThumborColor(color) != nil else { throw failure("\(color) is not a colour name, 3, 4, 6 or 8 hex digits, transparent, auto or blur") }
                let transparent = arguments.count > 1 ? try boolean(1) : false
                return .fill(color, transparent: transparent)
            case .backgroundColor:
                try count(1...1)
                let color = try word(0)
                guard let parsed = ThumborColor(color), parsed != .blur else { throw failure("\(color) is not a colour name, 3, 4, 6 or 8 hex digits, transparent or auto") }
                return .backgroundColor(color)
            case .maxBytes:
                try count(1...1)
                let value = try unsigned(0)
                // thumbor treats 0 as no limit.
                return value == 0 ? nil : .maxBytes(value)
            case .maxAge:
                try count(1...1)
                return .maxAge(try unsigned(0))
            case .brightness, .contrast:
                try count(1...1)
                let value = try signed(0)
                guard (-100...100).contains(value) else { throw failure("the value must be -100 to 100") }
                return kind == .brightness ? .brightness(value) : .contrast(value)
            case .saturation:
                try count(1...1)
                return .saturation(try decimal(0))
            case .watermark:
                try count(4...6)
                let source = try imageSource(0)
                let x = try watermarkPosition(1), y = try watermarkPosition(2)
                let alpha = try unsigned(3)
                guard alpha <= 100 else { throw failure("alpha (transparency) must be 0 to 100") }
                let widthRatio = arguments.count > 4 ? try watermarkRatio(4) : nil
                let heightRatio = arguments.count > 5 ? try watermarkRatio(5) : nil
                return .watermark(ThumborWatermark(source: source, x: x, y: y, alpha: alpha, widthRatio: widthRatio, heightRatio: heightRatio))
            case .frame:
                try count(1...1)
                return .frame(try imageSource(0))
            case .proportion:
                try count(1...1)
                let value = try decimal(0)
                guard value > 0, value <= 1 else { throw failure("the proportion must be more than 0 and at most 1") }
                return .proportion(value)
            case .extractFocal:
                try count(0...0)
                return .extractFocal
            case .autoJPG:
                try count(0...1)
                return .autoJPG(arguments.isEmpty ? true : try boolean(0))
            }
        }

        /// Argument `index` as an image's URL (thumbor's `String`: `'quotes'` around it are
        /// removed).
        private func imageSource(_ index: Int) throws(WebImageError) -> String {
            var value = arguments[index]
            if value.count >= 3, value.first == "'", value.last == "'" { value = value.dropFirst().dropLast() }
            guard !value.isEmpty else { throw failure("argument \(index + 1) names no image") }
            return String(value)
        }

        /// Argument `index` as a watermark position: `N`, `-N`, `Np`, `-Np`, `center` or `repeat`.
        private func watermarkPosition(_ index: Int) throws(WebImageError) -> ThumborWatermark.Position {
            let text = arguments[index]
            switch text {
            case "center": return .center
            case "repeat": return .repeat
            default: break
            }
            let negative = text.hasPrefix("-")
            var body = negative ? text.dropFirst() : text
            let percent = body.hasSuffix("p")
            if percent { body = body.dropLast() }
            guard let value = Self.digits(body) else {
                throw failure("argument \(index + 1) (\(text)) is not a position (N, -N, Np, -Np, center or repeat)")
            }
            switch (negative, percent) {
            case (false, false): return .offset(value)
            case (true, false): return .fromEnd(value)
            case (false, true): return .percent(value)
            case (true, true): return .percentFromEnd(value)
            }
        }

        /// Argument `index` as a watermark's size ratio: a percentage, or `none`; 0 is none.
        private func watermarkRatio(_ index: Int) throws(WebImageError) -> Int? {
            if arguments[index] == "none" { return nil }
            guard let value = Self.digits(arguments[index]) else {
                throw failure("argument \(index + 1) (\(arguments[index])) is not a percentage of at least 0, or none")
            }
            return value == 0 ? nil : value
        }

        /// An invalid-URL error naming the filter and `reason`.
        private func failure(_ reason: String) -> WebImageError {
            WebImageError(.invalidURL, "filter \(filter): \(reason) in \(path)")
        }

        /// Checks the number of arguments.
        private func count(_ allowed: ClosedRange<Int>) throws(WebImageError) {
            guard allowed.contains(arguments.count) else {
                let expected = allowed.lowerBound == allowed.upperBound ? "\(allowed.lowerBound)" : "\(allowed.lowerBound) to \(allowed.upperBound)"
                throw failure("expected \(expected) argument\(allowed.upperBound == 1 ? "" : "s"), got \(arguments.count)")
            }
        }

        /// A run of ASCII digits as a number (saturating at 999,999,999), or `nil`.
        static func digits(_ text: Substring) -> Int? {
            guard !text.isEmpty, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
            var value = 0
            for byte in text.utf8 { value = min(value * 10 + Int(byte - UInt8(ascii: "0")), 999_999_999) }
            return value
        }

        /// Argument `index` as thumbor's `PositiveNumber` (digits).
        private func unsigned(_ index: Int) throws(WebImageError) -> Int {
            guard let value = Self.digits(arguments[index]) else { throw failure("argument \(index + 1) (\(arguments[index])) is not a whole number") }
            return value
        }

        /// Argument `index` as thumbor's `Number` (an optional `-`, then digits).
        private func signed(_ index: Int) throws(WebImageError) -> Int {
            let text = arguments[index]
            let negative = text.hasPrefix("-")
            guard let magnitude = Self.digits(negative ? text.dropFirst() : text) else { throw failure("argument \(index + 1) (\(text)) is not a whole number") }
            return negative ? -magnitude : magnitude
        }

        /// Argument `index` as thumbor's `DecimalNumber` (an optional `-`, digits with at most
        /// one `.`, at least one digit).
        private func decimal(_ index: Int) throws(WebImageError) -> Double {
            let text = arguments[index]
            let body = text.hasPrefix("-") ? text.dropFirst() : text
            let isDecimal = body.contains(where: \.isNumber) && body.filter({ $0 == "." }).count <= 1
                && body.allSatisfy({ $0 == "." || ("0"..."9").contains($0) })
            guard isDecimal, let value = Double(String(text)), value.isFinite else { throw failure("argument \(index + 1) (\(text)) is not a number") }
            return value
        }

        /// Argument `index` as thumbor's `Boolean` (`true`, `True`, `1`, `false`, `False`, `0`).
        private func boolean(_ index: Int) throws(WebImageError) -> Bool {
            switch arguments[index] {
            case "true", "True", "1": return true
            case "false", "False", "0": return false
            default: throw failure("argument \(index + 1) (\(arguments[index])) is not true, false, 1 or 0")
            }
        }

        /// Argument `index` as a word (letters, digits and `_`: a colour name or hex digits).
        private func word(_ index: Int) throws(WebImageError) -> String {
            let text = arguments[index]
            guard !text.isEmpty, text.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else {
                throw failure("argument \(index + 1) (\(text)) is not a colour name or hex digits")
            }
            return String(text)
        }
    }
}
