public import WebImageCore

/// Parses thumbor-style paths into ``ThumborRequest`` values, with thumbor 7.8's grammar.
///
/// The grammar (libthumbor's `Url.regex()`, which thumbor 7.8 routes with):
/// `/<unsafe|signature>/[debug/][meta/][trim[:top-left|bottom-right][:N]/][AxB:CxD/]`
/// `[[adaptive-][full-]fit-in/][[-]W|orig]x[[-]H|orig]/][left|right|center/][top|bottom|middle/]`
/// `[smart/][filters:name(args)[:name(args)...]/]<image>`.
///
/// How thumbor reads it, and so how this parser reads it:
/// - It is matched on the raw path (still percent-encoded), so `fit-in` written `fit%2Din` is
///   not an option, and a `filters:` part must end in a literal `)/`; its captures are then
///   percent-decoded once (the image, the signature, the filters).
/// - Every part is optional and must end in `/`. A part that does not fit its pattern is not
///   an error: it and what follows become the image (`/unsafe/300x200/fit-in/a.jpg` asks for
///   the image `fit-in/a.jpg`), which the source check then refuses or does not find. The
///   parser backtracks like the regular expression, so it splits every path as thumbor does.
/// - The image is everything after the options (at least one character); it may contain `/`,
///   `http://...`, and percent-encoded parts, decoded once.
///
/// What this parser refuses with ``/WebImageCore/WebImageError/Code/invalidURL`` (the server
/// answers 400), where thumbor answers 400 too unless noted:
/// - a path with control characters or a NUL, an empty image, bytes that are not UTF-8 once
///   decoded;
/// - no `unsafe` or signature first, or a first segment that is neither `unsafe` nor shaped
///   like a signature (28 characters of URL-safe base64 ending in `=`);
/// - `debug/` (thumbor draws the focal points instead of resizing): refused rather than
///   silently answered with an image;
/// - a known filter with arguments thumbor's syntax does not accept or values out of range
///   (thumbor drops such a filter silently; refusing makes the mistake visible).
///
/// `meta/` sets ``ThumborRequest/meta`` (the server answers thumbor's JSON metadata). Unknown
/// filter names are skipped, as thumbor does (``ThumborRequest/ignoredFilters``).
public enum ThumborURLParser {
    /// The request `path` (as received, percent-encoded, without the query) asks for.
    /// - Throws: ``/WebImageCore/WebImageError`` (`.invalidURL`) naming what is malformed and
    ///   the path.
    public static func parse(_ path: String) throws(WebImageError) -> ThumborRequest {
        let bytes = Array(path.utf8)
        if let control = bytes.first(where: { $0 < 0x20 || $0 == 0x7F }) {
            throw WebImageError(.invalidURL, "control character 0x\(String(control, radix: 16)) in \(path)")
        }
        guard let match = ThumborPathGrammar(bytes: bytes) else {
            throw WebImageError(.invalidURL, "no image in \(path)")
        }

        var request = ThumborRequest(source: "")
        switch match.text(of: .security) {
        case nil:
            throw WebImageError(.invalidURL, "no signature or unsafe followed by an image in \(path)")
        case let segment? where segment.elementsEqual("unsafe".utf8):
            request.security = .unsafe
        case let segment?:
            guard let signature = ThumborPercentDecoding.decode(segment), ThumborBase64.isSignatureShaped(signature) else {
                throw WebImageError(.invalidURL, "'\(String(decoding: segment, as: UTF8.self))' is neither unsafe nor a signature (28 characters of URL-safe base64) in \(path)")
            }
            request.security = .signed(signature)
        }
        let signedStart = match.spans(of: .security)?.upperBound ?? 0
        request.signedPart = String(decoding: bytes[signedStart...], as: UTF8.self)

        if match.text(of: .debug) != nil {
            throw WebImageError(.invalidURL, "debug/ (thumbor's focal point drawing) is not supported in \(path)")
        }
        request.meta = match.text(of: .meta) != nil
        if let trim = match.text(of: .trim) {
            request.trim = parseTrim(String(decoding: trim, as: UTF8.self))
        }
        if let crop = match.text(of: .crop) {
            let numbers = String(decoding: crop, as: UTF8.self).split(whereSeparator: { $0 == "x" || $0 == ":" }).map { number($0) }
            // thumbor crops only when one of the four is above 0.
            if numbers.contains(where: { $0 > 0 }) {
                request.crop = ThumborRequest.Crop(left: numbers[0], top: numbers[1], right: numbers[2], bottom: numbers[3])
            }
        }
        if let fitIn = match.text(of: .fitIn) {
            let text = String(decoding: fitIn, as: UTF8.self)
            let adaptive = text.hasPrefix("adaptive-"), full = text.contains("full-")
            request.fitIn = adaptive ? (full ? .adaptiveFullFitIn : .adaptiveFitIn) : (full ? .fullFitIn : .fitIn)
        }
        if let dimensions = match.text(of: .dimensions) {
            let sides = String(decoding: dimensions, as: UTF8.self).split(separator: "x", maxSplits: 1, omittingEmptySubsequences: false)
            (request.flipsHorizontally, request.width, request.usesSourceWidth) = parseSide(sides[0])
            (request.flipsVertically, request.height, request.usesSourceHeight) = parseSide(sides[1])
        }
        if let alignment = match.text(of: .horizontalAlignment) {
            request.horizontalAlignment = ThumborRequest.HorizontalAlignment(rawValue: String(decoding: alignment, as: UTF8.self)) ?? .center
        }
        if let alignment = match.text(of: .verticalAlignment) {
            request.verticalAlignment = ThumborRequest.VerticalAlignment(rawValue: String(decoding: alignment, as: UTF8.self)) ?? .middle
        }
        request.smart = match.text(of: .smart) != nil
        if let filters = match.text(of: .filters) {
            guard let text = ThumborPercentDecoding.decode(filters) else {
                throw WebImageError(.invalidURL, "the filters are not UTF-8 once decoded in \(path)")
            }
            let parsed = try ThumborFilterParser.parse(text, path: path)
            request.filters = parsed.filters
            request.ignoredFilters = parsed.ignored
            request.focalRegions = parsed.focalRegions
        }
        guard let source = ThumborPercentDecoding.decode(match.image) else {
            throw WebImageError(.invalidURL, "the image is not UTF-8 once decoded in \(path)")
        }
        request.source = source
        request.applyExtractFocal()
        return request
    }

    /// `trim[:top-left|bottom-right][:N]` (already matched by the grammar), read as thumbor
    /// 7.8 reads it (`RequestParameters`): the second field is the corner and the third the
    /// tolerance, so `trim:10` names a corner "10", which thumbor's trimming takes as the
    /// bottom-right one, with tolerance 0. A tolerance above 442 trims like 442 (no colour is
    /// further than 441.7 from another), so it is capped there.
    private static func parseTrim(_ text: String) -> ThumborRequest.Trim {
        let fields = text.split(separator: ":", omittingEmptySubsequences: false)
        var trim = ThumborRequest.Trim()
        if fields.count > 1 { trim.fromBottomRight = fields[1] != "top-left" }
        if fields.count > 2 { trim.tolerance = min(number(fields[2]), 442) }
        return trim
    }

    /// One side of `[-]WxH`: the flip, the number (`nil` when absent or `orig`), and whether
    /// it is `orig`.
    private static func parseSide(_ text: Substring) -> (flips: Bool, value: Int?, usesSource: Bool) {
        let flips = text.hasPrefix("-")
        let body = flips ? text.dropFirst() : text
        if body == "orig" { return (flips, nil, true) }
        return (flips, body.isEmpty ? nil : number(body), false)
    }

    /// Digits already matched by the grammar, saturating at 999,999,999.
    private static func number(_ digits: Substring) -> Int {
        var value = 0
        for byte in digits.utf8 { value = min(value * 10 + Int(byte &- UInt8(ascii: "0")), 999_999_999) }
        return value
    }
}
