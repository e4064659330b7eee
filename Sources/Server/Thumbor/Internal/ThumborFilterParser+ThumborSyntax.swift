import WebImageCore

extension ThumborFilterParser {
    /// Whether the arguments of `kind` are read with thumbor's own expressions
    /// (``ThumborArgumentPattern``): a piece they do not match is skipped, as thumbor skips it.
    static func usesThumborSyntax(_ kind: Kind) -> Bool {
        switch kind {
        case .blur, .sharpen, .equalize, .noise, .rgb, .colorize, .convolution, .curve: true
        default: false
        }
    }

    /// The filter `piece` (from its name on, `)` included) names, read with thumbor's
    /// expression for `kind`; `nil` when the expression does not match (thumbor skips the
    /// piece).
    /// - Throws: An invalid-URL error for arguments thumbor's expression accepts but thumbor then
    ///   fails on (it answers `500`): numbers over C's `int`, a `colorize` fill that is not three
    ///   bytes of hex, a convolution kernel whose rows or columns are not odd in number, curve
    ///   points Python's `ast.literal_eval` refuses or C's `long` cannot hold.
    static func thumborSyntaxFilter(_ kind: Kind, piece: String, path: String) throws(WebImageError) -> ThumborFilter? {
        typealias Parameter = ThumborArgumentPattern.Parameter
        let failure = { (reason: String) in WebImageError(.invalidURL, "filter \(piece): \(reason) in \(path)") }
        func match(_ parameters: [Parameter]) -> [String?]? {
            ThumborArgumentPattern.match(piece, name: kind.rawValue, parameters)
        }
        /// A whole number C's `int` holds (thumbor hands these to its C filters as `int`).
        func cInt(_ text: String, _ what: String) throws(WebImageError) -> Int {
            guard let value = Int(ThumborArgumentPattern.asciiDigits(text)), value <= Int(Int32.max), value >= Int(Int32.min) else {
                throw failure("\(what) (\(text)) is over 2147483647")
            }
            return value
        }
        /// Python's `float()` of a `DecimalNumber`.
        func decimal(_ text: String) -> Double {
            Double(ThumborArgumentPattern.asciiDigits(text)) ?? 0
        }
        /// Python's reading of a `Boolean`.
        func boolean(_ text: String) -> Bool {
            ["true", "True", "1"].contains(text)
        }

        switch kind {
        case .blur:
            guard let arguments = match([Parameter(pattern: .positiveNonZeroNumber), Parameter(pattern: .decimalNumber, optional: true)]) else { return nil }
            let radiusText = ThumborArgumentPattern.asciiDigits(arguments[0]!)
            let radius = Int(radiusText).map { min($0, maximumBlurRadius) } ?? maximumBlurRadius
            // thumbor: a sigma of 0 (or none) is the radius as written, before the radius is
            // capped at MAX_RADIUS.
            var sigma = arguments[1].map(decimal) ?? 0
            if sigma == 0 { sigma = Double(radiusText) ?? .infinity }
            return .blur(radius: radius, sigma: abs(sigma))
        case .sharpen:
            guard let arguments = match([Parameter(pattern: .decimalNumber), Parameter(pattern: .decimalNumber), Parameter(pattern: .boolean)]) else { return nil }
            return .sharpen(amount: decimal(arguments[0]!), radius: decimal(arguments[1]!), luminanceOnly: boolean(arguments[2]!))
        case .equalize:
            return match([]) == nil ? nil : .equalize
        case .noise:
            guard let arguments = match([Parameter(pattern: .positiveNumber), Parameter(pattern: .positiveNumber, optional: true)]) else { return nil }
            let amount = try cInt(arguments[0]!, "the amount")
            let seed = try arguments[1].map { text throws(WebImageError) in try cInt(text, "the seed") }
            return .noise(amount: amount, seed: seed == 0 ? nil : seed)
        case .rgb:
            guard let arguments = match(Array(repeating: Parameter(pattern: .number), count: 3)) else { return nil }
            return .rgb(red: try cInt(arguments[0]!, "red"), green: try cInt(arguments[1]!, "green"), blue: try cInt(arguments[2]!, "blue"))
        case .colorize:
            let percent = Parameter(pattern: .positiveNumber)
            guard let arguments = match([percent, percent, percent, Parameter(pattern: .string)]) else { return nil }
            guard let fill = threeHexBytes(arguments[3]!) else { throw failure("the fill (\(arguments[3]!)) is not 6 hex digits") }
            return .colorize(red: try cInt(arguments[0]!, "red"), green: try cInt(arguments[1]!, "green"), blue: try cInt(arguments[2]!, "blue"), fill: fill)
        case .convolution:
            guard let arguments = match([Parameter(pattern: .convolutionMatrix), Parameter(pattern: .positiveNonZeroNumber), Parameter(pattern: .boolean, optional: true)]) else { return nil }
            let kernel = arguments[0]!.split(separator: ";").map { cDouble(String($0)) }
            let columns = try cInt(arguments[1]!, "the number of columns")
            guard kernel.count % columns == 0, kernel.count % 2 == 1, (kernel.count / columns) % 2 == 1 else {
                throw failure("\(kernel.count) items in rows of \(columns) is not an odd number of rows of an odd number of columns")
            }
            return .convolution(kernel: kernel, columns: columns, normalize: arguments[2].map(boolean) ?? true)
        case .curve:
            guard let arguments = match(Array(repeating: Parameter(pattern: .curve), count: 4)) else { return nil }
            var curves: [[ThumborFilter.CurvePoint]] = []
            for text in arguments {
                guard let points = curvePoints(text!) else {
                    throw failure("the curve \(text!) is not a list of (x,y) points with commas between them, numbers without leading zeros below 2^63, at most 255 points")
                }
                curves.append(points)
            }
            return .curve(all: curves[0], red: curves[1], green: curves[2], blue: curves[3])
        default:
            return nil
        }
    }

    /// Python's `bytearray.fromhex` of a `colorize` fill (quotes around it removed), when it
    /// gives the three bytes thumbor unpacks.
    static func threeHexBytes(_ text: String) -> RGBAColor? {
        var scalars = Array(text.unicodeScalars)
        if scalars.count >= 3, scalars.first == "'", scalars.last == "'", !scalars.contains("\n") {
            scalars = Array(scalars.dropFirst().dropLast())
        }
        var bytes: [UInt8] = []
        var index = 0
        func hex(_ scalar: Unicode.Scalar) -> UInt8? {
            switch scalar {
            case "0"..."9": UInt8(scalar.value - 48)
            case "a"..."f": UInt8(scalar.value - 87)
            case "A"..."F": UInt8(scalar.value - 55)
            default: nil
            }
        }
        while index < scalars.count {
            if [" ", "\t", "\n", "\r", "\u{0B}", "\u{0C}"].contains(scalars[index]) {
                index += 1
                continue
            }
            guard index + 1 < scalars.count, let high = hex(scalars[index]), let low = hex(scalars[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        guard bytes.count == 3 else { return nil }
        return RGBAColor(red: bytes[0], green: bytes[1], blue: bytes[2])
    }

    /// C's `atof` of a convolution item: the longest ASCII prefix that is a number (a Unicode
    /// digit, which thumbor's expression accepts, ends it), 0 when there is none.
    static func cDouble(_ text: String) -> Double {
        let bytes = Array(text.utf8)
        var end = 0
        if end < bytes.count, bytes[end] == UInt8(ascii: "-") { end += 1 }
        let isDigit = { (byte: UInt8) in (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
        var digits = 0
        while end < bytes.count, isDigit(bytes[end]) { end += 1; digits += 1 }
        if end < bytes.count, bytes[end] == UInt8(ascii: ".") {
            var fraction = end + 1
            while fraction < bytes.count, isDigit(bytes[fraction]) { fraction += 1; digits += 1 }
            end = fraction
        }
        guard digits > 0 else { return 0 }
        return Double(String(decoding: bytes[0..<end], as: UTF8.self)) ?? 0
    }

    /// The points of one curve as thumbor's C code reads them (each coordinate's low 8 bits),
    /// or `nil` where thumbor fails: Python's `ast.literal_eval` refuses a point not followed
    /// by a comma before the next, a number with leading zeros or non-ASCII digits; C's
    /// `PyLong_AS_LONG` cannot hold 2^63; the C code counts points in an `unsigned char`.
    static func curvePoints(_ text: String) -> [ThumborFilter.CurvePoint]? {
        // The text matched `\[(?:\(\d+,\d+\),?)*\]`.
        var points: [ThumborFilter.CurvePoint] = []
        let inside = text.unicodeScalars.dropFirst().dropLast()
        var pieces = String(String.UnicodeScalarView(inside)).split(separator: ")", omittingEmptySubsequences: false)
        // The last point's `)` (and the comma after it) leave an empty or `,` piece.
        if pieces.last == "" || pieces.last == "," { pieces.removeLast() }
        for (index, piece) in pieces.enumerated() {
            var body = piece
            if index > 0 {
                guard body.hasPrefix(",") else { return nil }
                body = body.dropFirst()
            }
            guard body.hasPrefix("(") else { return nil }
            let numbers = body.dropFirst().split(separator: ",", omittingEmptySubsequences: false)
            guard numbers.count == 2 else { return nil }
            var coordinates: [UInt8] = []
            for number in numbers {
                guard number.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
                      number.count == 1 || number.first != "0" || number.allSatisfy({ $0 == "0" }),
                      let value = UInt64(number), value < 1 << 63 else { return nil }
                coordinates.append(UInt8(truncatingIfNeeded: value))
            }
            points.append(ThumborFilter.CurvePoint(x: coordinates[0], y: coordinates[1]))
        }
        return points.count <= 255 ? points : nil
    }
}
