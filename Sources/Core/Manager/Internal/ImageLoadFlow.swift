import Foundation

/// The decisions of one load (SDWebImage's manager flow), as a value: each method takes what the
/// last step found and returns the next ``Step``. ``ImageLoadPipeline`` performs the steps (the
/// caches, the loader, the transformer, the stores) and reports their events; the order of the
/// steps, which hit serves the request and which error ends it are decided here, and tested
/// without a cache or a loader.
///
/// The flow: the cache under the request's key (unless `fromLoaderOnly` or a query type of
/// `.none`); a usable hit is the answer unless `refreshCached`. A variant request (thumbnail,
/// scale-down, transformer) that missed asks for the full-size original under the original key
/// and renders it. Then, unless `fromCacheOnly`, the loader, if it can load the URL: its image is
/// rendered (or, with `avoidDecodeImage`, its data delivered as it is); a "not modified" answer
/// to a refresh keeps the cached image.
struct ImageLoadFlow: Sendable {
    /// What the pipeline does next.
    enum Step: Sendable {
        /// Query the cache under the request's key.
        case queryCache
        /// Query the cache for the full-size original under the original key.
        case queryOriginal
        /// Fit the original hit's image to the request, transform it, store it under the
        /// request's key, and deliver it.
        case renderOriginal(ImageCacheResult, image: WebImage)
        /// Ask the loader whether it can load the URL.
        case checkLoader
        /// Call the loader; with `showing`, first show the cached result (`refreshCached`).
        case load(showing: ImageCacheResult?)
        /// Deliver the loaded data, undecoded, and store it under the original key
        /// (`avoidDecodeImage`).
        case deliverData(Data)
        /// Transform the loaded image, store it (and the original), and deliver it.
        case renderLoaded(WebImage, ImageLoaderResult)
        /// Deliver a cache hit as it is; nothing is stored.
        case deliverCached(ImageCacheResult)
        /// End with `error`. `loaderError`: the loader's own error, for the loader to say
        /// whether the URL is blocked (``ImageLoader/shouldBlockFailedURL(_:error:)``).
        case fail(WebImageError, loaderError: (any Error)? = nil)
    }

    let url: URL
    let key: String
    let options: WebImageOptions
    let queryCacheType: ImageCacheType
    let originalQueryCacheType: ImageCacheType
    let isVariant: Bool
    /// The usable hit under the request's key, once queried.
    private(set) var cached: ImageCacheResult?

    init(url: URL, key: String, options: WebImageOptions, queryCacheType: ImageCacheType, originalQueryCacheType: ImageCacheType, isVariant: Bool) {
        self.url = url
        self.key = key
        self.options = options
        self.queryCacheType = queryCacheType
        self.originalQueryCacheType = originalQueryCacheType
        self.isVariant = isVariant
    }

    /// The first step.
    func start() -> Step {
        guard !options.contains(.fromLoaderOnly) else { return afterCaches() }
        return queryCacheType == .none ? afterQuery() : .queryCache
    }

    /// The cache under the request's key answered `hit`.
    mutating func cacheQueried(_ hit: ImageCacheResult?) -> Step {
        cached = hit.flatMap { isUsable($0) ? $0 : nil }
        if let cached, !options.contains(.refreshCached) { return .deliverCached(cached) }
        return afterQuery()
    }

    /// The cache answered `hit` for the full-size original.
    func originalQueried(_ hit: ImageCacheResult?) -> Step {
        if let hit, let image = hit.image { return .renderOriginal(hit, image: image) }
        return afterCaches()
    }

    /// The loader said whether it can load the URL.
    func loaderChecked(canRequest: Bool) -> Step {
        guard canRequest else {
            if let cached { return .deliverCached(cached) }
            return .fail(WebImageError(.unsupportedURL, "No image loader can request \(url.absoluteString)", url: url))
        }
        return .load(showing: cached)
    }

    /// The loader failed with `error`; `isCancelled`: the load's task was cancelled.
    func loadFailed(_ error: any Error, isCancelled: Bool) -> Step {
        if isCancelled || WebImageError.isCancellation(error) {
            return .fail(WebImageError(.cancelled, "Operation cancelled by user during loading", underlyingError: error, url: url))
        }
        if let cached, (error as? WebImageError)?.code == .cacheNotModified {
            // "Not modified": the cached image stands; the request ends without a new image.
            return .deliverCached(cached)
        }
        if var reported = error as? WebImageError {
            if reported.url == nil { reported.url = url }
            return .fail(reported, loaderError: error)
        }
        return .fail(WebImageError(.loaderFailed, "The loader failed for \(url.absoluteString): \(error)", underlyingError: error, url: url), loaderError: error)
    }

    /// The loader delivered `loaded`.
    func loaded(_ loaded: ImageLoaderResult) -> Step {
        guard let image = loaded.image else {
            if options.contains(.avoidDecodeImage), let data = loaded.data { return .deliverData(data) }
            return .fail(WebImageError(.badImageData, loaded.data == nil ? "Image data is nil" : "The loader delivered data but no image", url: url))
        }
        guard !image.pixelSize.isEmpty else {
            return .fail(WebImageError(.badImageData, "Downloaded image has 0 pixels", url: url))
        }
        return .renderLoaded(image, loaded)
    }

    /// After the request's key missed (or a refresh): the original, for a variant request.
    private func afterQuery() -> Step {
        if cached == nil, isVariant, originalQueryCacheType != .none { return .queryOriginal }
        return afterCaches()
    }

    /// After the caches: the loader, unless `fromCacheOnly`.
    private func afterCaches() -> Step {
        guard options.contains(.fromCacheOnly) else { return .checkLoader }
        if let cached { return .deliverCached(cached) }
        return .fail(WebImageError(.cacheMiss, "\(key) is not in the cache and fromCacheOnly forbids loading it", url: url))
    }

    /// Whether a cache hit can serve the request: an image, or data when decoding is avoided.
    private func isUsable(_ hit: ImageCacheResult) -> Bool {
        hit.image != nil || (options.contains(.avoidDecodeImage) && hit.data != nil)
    }
}
