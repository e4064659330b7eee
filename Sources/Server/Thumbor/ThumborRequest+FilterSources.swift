extension ThumborRequest {
    /// The images the filters draw besides the source: the URLs of the `watermark(...)` and
    /// `frame(...)` filters, in the URL's order, each once. A server loads them as it loads
    /// ``source`` (the same rules, limits and caches).
    public var filterSources: [String] {
        var seen: Set<String> = []
        var sources: [String] = []
        for filter in filters {
            let text: String
            switch filter {
            case .watermark(let watermark): text = watermark.source
            case .frame(let frame): text = frame
            default: continue
            }
            if seen.insert(text).inserted { sources.append(text) }
        }
        return sources
    }
}
