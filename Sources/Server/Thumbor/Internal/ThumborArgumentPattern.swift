/// thumbor 7.8's argument syntax, matched as thumbor matches it.
///
/// thumbor (`thumbor/filters/__init__.py`) builds one regular expression per filter from its
/// parameter types: `name\(`, then for each parameter `(?:,\s*(TYPE)\s*)` (no comma before the
/// first; a `?` after a parameter with a default), then `\)`, matched with Python's `re.match`:
/// at the start of the piece, whatever follows the `)`. A piece that does not match is
/// skipped. The types are regular expressions too; Python's `\d` is any Unicode decimal digit
/// and `\s` any Unicode space. ``match(_:_:)`` follows Python's backtracking where it can
/// change the outcome (the lazy `String` type after spaces).
enum ThumborArgumentPattern: Equatable {
    /// `PositiveNumber`: `\d+`.
    case positiveNumber
    /// `PositiveNonZeroNumber`: `\d*[1-9]\d*` (an ASCII 1 to 9 among the digits).
    case positiveNonZeroNumber
    /// `Number`: `-?\d+`.
    case number
    /// `DecimalNumber`: `-?(?:\d+\.?\d*|\d*\.?\d+)`.
    case decimalNumber
    /// `Boolean`: `[Tt]rue|[Ff]alse|1|0`.
    case boolean
    /// `String`: `'.+?'|[^,]+?` (lazy).
    case string
    /// `convolution`'s matrix: `-?\d+(?:\.\d*)?(?:;-?\d+(?:\.\d*)?)*`.
    case convolutionMatrix
    /// `curve`'s curves: `\[(?:\(\d+,\d+\),?)*\]`.
    case curve

    /// One parameter of a filter: its type, and whether it may be left out (it has a default).
    struct Parameter {
        var pattern: ThumborArgumentPattern
        var optional = false
    }

    /// The arguments of `piece` (a filter's text from its name on, `)` included) for a filter
    /// named `name` with `parameters`, as written (spaces around them left out; `nil` for an
    /// optional one left out), or `nil` when thumbor's expression does not match.
    static func match(_ piece: String, name: String, _ parameters: [Parameter]) -> [String?]? {
        let scalars = Array(piece.unicodeScalars)
        let head = Array((name + "(").unicodeScalars)
        guard scalars.starts(with: head) else { return nil }
        let matcher = Matcher(text: scalars, parameters: parameters)
        return matcher.arguments(from: 0, at: head.count).map { $0.map { $0.map { String(String.UnicodeScalarView($0)) } } }
    }

    /// Whether `scalar` is a decimal digit to Python's `\d` (Unicode category Nd).
    static func isDigit(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .decimalNumber
    }

    /// Whether `scalar` is a space to Python's `\s` (`str.isspace()`).
    static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        (0x09...0x0D).contains(scalar.value) || (0x1C...0x20).contains(scalar.value) || scalar.properties.isWhitespace
    }

    /// `text` with its Unicode decimal digits as ASCII digits (Python's `int()` and `float()`
    /// read any decimal digit).
    static func asciiDigits(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            if isDigit(scalar), let value = scalar.properties.numericValue, value >= 0, value <= 9 {
                result.unicodeScalars.append(Unicode.Scalar(UInt8(ascii: "0") + UInt8(value)))
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private struct Matcher {
        let text: [Unicode.Scalar]
        let parameters: [Parameter]

        /// The captures of parameters `index...` when they and the closing `)` match at `position`.
        func arguments(from index: Int, at position: Int) -> [[Unicode.Scalar]?]? {
            guard index < parameters.count else {
                return position < text.count && text[position] == ")" ? [] : nil
            }
            let parameter = parameters[index]
            var start = position
            if index == 0 || (start < text.count && text[start] == ",") {
                if index > 0 { start += 1 }
                var spaces = start
                while spaces < text.count, ThumborArgumentPattern.isSpace(text[spaces]) { spaces += 1 }
                // `\s*` is greedy: the most spaces first, fewer when the rest fails.
                for first in stride(from: spaces, through: start, by: -1) {
                    for end in ends(of: parameter.pattern, at: first) {
                        var next = end
                        while next < text.count, ThumborArgumentPattern.isSpace(text[next]) { next += 1 }
                        if let rest = arguments(from: index + 1, at: next) {
                            return [Array(text[first..<end])] + rest
                        }
                    }
                }
            }
            if parameter.optional, let rest = arguments(from: index + 1, at: position) {
                return [nil] + rest
            }
            return nil
        }

        /// The ends of the matches of `pattern` at `start`, in the order Python tries them. For
        /// the greedy types only the longest can be followed by `\s*` and `,` or `)`, so it is
        /// the only one given.
        func ends(of pattern: ThumborArgumentPattern, at start: Int) -> [Int] {
            switch pattern {
            case .positiveNumber:
                let end = digits(from: start)
                return end > start ? [end] : []
            case .positiveNonZeroNumber:
                let end = digits(from: start)
                return text[start..<end].contains(where: { ("1"..."9").contains($0) }) ? [end] : []
            case .number:
                let sign = start < text.count && text[start] == "-" ? start + 1 : start
                let end = digits(from: sign)
                return end > sign ? [end] : []
            case .decimalNumber:
                return decimal(from: start).map { [$0] } ?? []
            case .boolean:
                for word in ["true", "True", "false", "False", "1", "0"] {
                    let scalars = Array(word.unicodeScalars)
                    if text[start...].starts(with: scalars) { return [start + scalars.count] }
                }
                return []
            case .string:
                var ends: [Int] = []
                // `'.+?'`: the shortest quoted text first (`.` is anything but a line feed).
                if start < text.count, text[start] == "'" {
                    var end = start + 3
                    while end <= text.count, text[end - 2] != "\n" {
                        if text[end - 1] == "'" { ends.append(end) }
                        end += 1
                    }
                }
                // `[^,]+?`: the shortest run first.
                var end = start + 1
                while end <= text.count, text[end - 1] != "," {
                    ends.append(end)
                    end += 1
                }
                return ends
            case .convolutionMatrix:
                var end = start
                repeat {
                    if end > start { end += 1 }
                    let sign = end < text.count && text[end] == "-" ? end + 1 : end
                    let whole = digits(from: sign)
                    guard whole > sign else {
                        // The `;` just read starts no item: the match ends before it.
                        return end > start ? [end - 1] : []
                    }
                    end = whole
                    if end < text.count, text[end] == "." { end = digits(from: end + 1) }
                } while end < text.count && text[end] == ";"
                return [end]
            case .curve:
                guard start < text.count, text[start] == "[" else { return [] }
                var end = start + 1
                while end < text.count, text[end] == "(" {
                    let x = digits(from: end + 1)
                    guard x > end + 1, x < text.count, text[x] == "," else { break }
                    let y = digits(from: x + 1)
                    guard y > x + 1, y < text.count, text[y] == ")" else { break }
                    end = y + 1
                    if end < text.count, text[end] == "," { end += 1 }
                }
                return end < text.count && text[end] == "]" ? [end + 1] : []
            }
        }

        /// The end of the run of digits at `start`.
        func digits(from start: Int) -> Int {
            var end = start
            while end < text.count, ThumborArgumentPattern.isDigit(text[end]) { end += 1 }
            return end
        }

        /// The end of `-?(?:\d+\.?\d*|\d*\.?\d+)` at `start`.
        func decimal(from start: Int) -> Int? {
            let sign = start < text.count && text[start] == "-" ? start + 1 : start
            let whole = digits(from: sign)
            var end = whole
            var fraction = 0
            if end < text.count, text[end] == "." {
                let afterPoint = digits(from: end + 1)
                fraction = afterPoint - end - 1
                if whole > sign || fraction > 0 { end = afterPoint }
            }
            return whole > sign || fraction > 0 ? end : nil
        }
    }
}
