extension ThumborRequest {
    /// The most thumbor URLs `extract_focal()` unwraps to find a crop (thumbor's `MAX_LEVEL`).
    static let maximumFocalExtractionLevels = 10

    /// thumbor's `extract_focal()`, a filter of the phase before loading, once for each such
    /// filter in the URL's order: when ``source`` is a thumbor URL with a crop
    /// (`host/unsafe/AxB:CxD/.../image`, any signature or `unsafe`, up to
    /// ``maximumFocalExtractionLevels`` URLs nested in one another without a crop first), the
    /// source becomes that URL's image and its crop a focal region. A source that is no such
    /// URL is left as it is (and loads as written).
    ///
    /// Decision: thumbor 7.8 never finds the crop (it percent-encodes the `:` of the image URL
    /// before the filter reads it, so its pattern does not match and the source is loaded as
    /// written: usually `404`); this server does what the filter is written to do. A crop with
    /// no area (whose weight would be 0) changes the source but adds no region.
    mutating func applyExtractFocal() {
        for case .extractFocal in filters {
            guard let (image, region) = Self.focalExtraction(from: source) else { continue }
            source = image
            if region.right > region.left, region.bottom > region.top { focalRegions.append(region) }
        }
    }

    /// thumbor's `parse_url` of `extract_focal`: the image and crop of the first thumbor URL
    /// with a crop in `url`, unwrapping the images of URLs without one; `nil` when a level is
    /// no thumbor URL (no signature or `unsafe`) or none has a crop.
    static func focalExtraction(from url: String) -> (image: String, region: Crop)? {
        var url = Substring(url)
        for _ in 0..<maximumFocalExtractionLevels {
            url = strippingHost(url)
            guard let match = ThumborPathGrammar(bytes: Array(url.utf8)), match.spans(of: .security) != nil else { return nil }
            let image = String(decoding: match.image, as: UTF8.self)
            if let crop = match.text(of: .crop) {
                let edges = String(decoding: crop, as: UTF8.self).split(whereSeparator: { $0 == "x" || $0 == ":" }).map { Self.saturatingNumber($0) }
                return (image, Crop(left: edges[0], top: edges[1], right: edges[2], bottom: edges[3]))
            }
            url = Substring(image)
        }
        return nil
    }

    /// `url` without what thumbor's `^(https?://)?.*?/` matches: an optional scheme and the
    /// host up to the first `/` after it (else up to the first `/` at all); unchanged when it
    /// has no `/`.
    private static func strippingHost(_ url: Substring) -> Substring {
        for scheme in ["https://", "http://"] where url.hasPrefix(scheme) {
            let rest = url.dropFirst(scheme.count)
            if let slash = rest.firstIndex(of: "/") { return rest[rest.index(after: slash)...] }
        }
        guard let slash = url.firstIndex(of: "/") else { return url }
        return url[url.index(after: slash)...]
    }

    /// Digits already matched by the grammar, saturating at 999,999,999.
    private static func saturatingNumber(_ digits: Substring) -> Int {
        var value = 0
        for byte in digits.utf8 { value = min(value * 10 + Int(byte &- UInt8(ascii: "0")), 999_999_999) }
        return value
    }
}
