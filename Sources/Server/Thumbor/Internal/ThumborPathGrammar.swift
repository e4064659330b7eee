/// thumbor's URL grammar, matched the way thumbor matches it.
///
/// thumbor routes image requests with one regular expression (libthumbor's `Url.regex()`,
/// anchored at both ends by tornado) run on the raw, still percent-encoded path: an optional
/// leading `/`, then a sequence of optional parts, each ending in `/` (`unsafe` or a
/// signature, `debug`, `meta`, `trim...`, `AxB:CxD`, `[adaptive-][full-]fit-in`, `[-]WxH`,
/// `left|right|center`, `top|bottom|middle`, `smart`, `filters:...)`), then the image: at least
/// one character, everything left. A part that does not match its pattern is simply absent,
/// and what follows falls into the image (`/unsafe/fit-in/300x/a.jpg` has fit-in and a width;
/// `/unsafe/300x200/fit-in/a.jpg` has a size and the image `fit-in/a.jpg`).
///
/// This matcher tries the parts in that order with the same preferences as the regular
/// expression (a part that matches is taken, the lazy signature and filters parts take their
/// shortest match first) and backtracks the same way when the image would be left empty, so
/// it finds the same split as thumbor for every path. It works on bytes: every literal of the
/// grammar is ASCII.
struct ThumborPathGrammar {
    /// The parts, in the order the grammar tries them.
    enum Part: Int, CaseIterable {
        case leadingSlash, security, debug, meta, trim, crop, fitIn, dimensions, horizontalAlignment, verticalAlignment, smart, filters
    }

    /// The path's bytes.
    let bytes: [UInt8]
    /// For each part, the byte range it matched (its trailing `/` included), or `nil`.
    private(set) var spans: [Range<Int>?] = Array(repeating: nil, count: Part.allCases.count)
    /// Where the image starts (it runs to the end).
    private(set) var imageStart = 0

    /// Matches `bytes`; `nil` when no split leaves a non-empty image (an empty path, or one
    /// made only of options).
    init?(bytes: [UInt8]) {
        self.bytes = bytes
        guard match(partIndex: 0, at: 0) else { return nil }
    }

    /// The bytes a part matched, without its trailing `/` (and for `filters`, without the
    /// `filters:` prefix), or `nil` when the part is absent.
    func text(of part: Part) -> ArraySlice<UInt8>? {
        guard let span = spans[part.rawValue] else { return nil }
        switch part {
        case .leadingSlash: return bytes[span]
        case .filters: return bytes[(span.lowerBound + 8)..<(span.upperBound - 1)]
        default: return bytes[span.lowerBound..<(span.upperBound - 1)]
        }
    }

    /// The byte range `part` matched (its trailing `/` included), or `nil` when it is absent.
    func spans(of part: Part) -> Range<Int>? { spans[part.rawValue] }

    /// The image's bytes (never empty after a successful match).
    var image: ArraySlice<UInt8> { bytes[imageStart...] }

    /// Tries the parts from `partIndex` on at `position`, each as it would be taken then
    /// absent, and the image last; records the first split that works.
    private mutating func match(partIndex: Int, at position: Int) -> Bool {
        guard partIndex < Part.allCases.count else {
            guard position < bytes.count else { return false }
            imageStart = position
            return true
        }
        let part = Part(rawValue: partIndex)!
        for end in candidateEnds(of: part, at: position) {
            spans[partIndex] = position..<end
            if match(partIndex: partIndex + 1, at: end) { return true }
        }
        spans[partIndex] = nil
        return match(partIndex: partIndex + 1, at: position)
    }

    /// The ends (just past the trailing `/`) at which `part` can match from `position`, most
    /// preferred first; empty when it cannot match there.
    private func candidateEnds(of part: Part, at position: Int) -> [Int] {
        var scanner = Scanner(bytes: bytes, position: position)
        switch part {
        case .leadingSlash:
            return scanner.take("/") ? [scanner.position] : []
        case .security:
            // `unsafe/` first, then a signature of one or more characters up to a `/`, the
            // shortest first (each `/` further on is a later choice).
            var ends: [Int] = []
            if scanner.take("unsafe/") { ends.append(scanner.position) }
            var index = position + 1
            while index < bytes.count {
                if bytes[index] == UInt8(ascii: "/") { ends.append(index + 1) }
                index += 1
            }
            return ends
        case .debug:
            return scanner.take("debug/") ? [scanner.position] : []
        case .meta:
            return scanner.take("meta/") ? [scanner.position] : []
        case .trim:
            guard scanner.take("trim") else { return [] }
            var corner = scanner
            if corner.take(":top-left") || corner.take(":bottom-right") { scanner = corner }
            var tolerance = scanner
            if tolerance.take(":"), tolerance.takeDigits() { scanner = tolerance }
            return scanner.take("/") ? [scanner.position] : []
        case .crop:
            guard scanner.takeDigits(), scanner.take("x"), scanner.takeDigits(), scanner.take(":"),
                  scanner.takeDigits(), scanner.take("x"), scanner.takeDigits(), scanner.take("/") else { return [] }
            return [scanner.position]
        case .fitIn:
            _ = scanner.take("adaptive-")
            _ = scanner.take("full-")
            return scanner.take("fit-in/") ? [scanner.position] : []
        case .dimensions:
            _ = scanner.take("-")
            if !scanner.takeDigits() { _ = scanner.take("orig") }
            guard scanner.take("x") else { return [] }
            _ = scanner.take("-")
            if !scanner.takeDigits() { _ = scanner.take("orig") }
            return scanner.take("/") ? [scanner.position] : []
        case .horizontalAlignment:
            return scanner.take("left/") || scanner.take("right/") || scanner.take("center/") ? [scanner.position] : []
        case .verticalAlignment:
            return scanner.take("top/") || scanner.take("bottom/") || scanner.take("middle/") ? [scanner.position] : []
        case .smart:
            return scanner.take("smart/") ? [scanner.position] : []
        case .filters:
            // `filters:`, one or more characters ending in `)`, then `/`: every `)/` after at
            // least one character is a choice, the nearest first.
            guard scanner.take("filters:") else { return [] }
            var ends: [Int] = []
            var index = scanner.position + 1
            while index + 1 < bytes.count {
                if bytes[index] == UInt8(ascii: ")"), bytes[index + 1] == UInt8(ascii: "/") { ends.append(index + 2) }
                index += 1
            }
            return ends
        }
    }

    /// A cursor over the path's bytes that takes literals and digit runs.
    private struct Scanner {
        let bytes: [UInt8]
        var position: Int

        /// Takes `literal` if the bytes at the cursor spell it.
        mutating func take(_ literal: StaticString) -> Bool {
            let count = literal.utf8CodeUnitCount
            guard bytes.count - position >= count else { return false }
            let matches = literal.withUTF8Buffer { expected in
                expected.indices.allSatisfy { bytes[position + $0] == expected[$0] }
            }
            if matches { position += count }
            return matches
        }

        /// Takes one or more ASCII digits.
        mutating func takeDigits() -> Bool {
            let start = position
            while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) { position += 1 }
            return position > start
        }
    }
}
