import Foundation

/// The stages of one load (SDWebImage's manager flow): cache query, original-key query,
/// loader, transform, store. It runs in its own task, off the caller's thread.
///
/// It reports the work's events (cache hit or miss, loader, transform, stores) through `sink`,
/// the work's sink (also in the context, for the parts) when the load is observed.
struct ImageLoadPipeline: Sendable {
    let request: ImageLoadRequest
    let failedURLs: FailedURLSet
    let sink: ImageEventSink?

    /// A cache store to run after (or, with `waitStoreCache`, before) the result.
    private struct StoreAction: Sendable {
        let cache: any ImageCache
        let image: WebImage?
        let data: Data?
        let key: String
        let cacheType: ImageCacheType
        /// The options and context handed to the cache: the request's, or for the full-size
        /// original the request's without its thumbnail, scale-down and transformer.
        let options: WebImageOptions
        let context: WebImageContext
    }

    /// Runs the stages; delivers the result (or error) exactly once through `deliver`. The
    /// stores' immediate parts (memory tiers, ``ImageCache/beginStore(_:data:forKey:options:context:cacheType:)``)
    /// run before the delivery, so that a memory lookup in the completion finds the image under
    /// its key, thumbnails included (SDWebImage writes memory before it completes); the rest
    /// (disk, remote tiers) runs after it, or before it with `waitStoreCache`.
    func run(emit: @escaping ImageLoadEventHandler, deliver: (Result<ImageLoadResult, any Error>) -> Void) async {
        let outcome: (ImageLoadResult, [StoreAction])
        do {
            outcome = try await stages(emit: emit)
        } catch {
            deliver(.failure(error))
            return
        }
        let (result, stores) = outcome
        let begun = begin(stores)
        if request.options.contains(.waitStoreCache) {
            await finish(begun)
            deliver(.success(result))
        } else {
            deliver(.success(result))
            await finish(begun)
        }
    }

    /// The immediate part of every store, now, and what is left of each.
    private func begin(_ stores: [StoreAction]) -> [(store: StoreAction, rest: @Sendable () async throws -> Void)] {
        stores.map { store in
            (store, store.cache.beginStore(store.image, data: store.data, forKey: store.key, options: store.options, context: store.context, cacheType: store.cacheType))
        }
    }

    /// Finishes begun stores, one after the other, and reports each.
    private func finish(_ begun: [(store: StoreAction, rest: @Sendable () async throws -> Void)]) async {
        for (store, rest) in begun {
            // A store failure never fails a load: the image is delivered, the event reports it.
            do {
                try await rest()
                sink?.emit(.stored(cacheType: store.cacheType, key: store.key))
            } catch {
                guard let sink else { continue }
                let reported = error as? WebImageError
                    ?? WebImageError(.cacheFailure, "Storing key \(String(reflecting: store.key)) in the \(store.cacheType) cache tier failed: \(error)", underlyingError: error, url: request.url)
                sink.emit(.storeFailed(cacheType: store.cacheType, key: store.key, error: reported))
            }
        }
    }

    private func checkCancellation(_ stage: String) throws {
        if Task.isCancelled {
            throw WebImageError.cancelled("Operation cancelled by user during \(stage)", url: request.url)
        }
    }

    private func result(_ image: WebImage?, data: Data?, cacheType: ImageCacheType, key: String? = nil) -> ImageLoadResult {
        ImageLoadResult(image: image, data: data, cacheType: cacheType, url: request.url, cacheKey: key ?? request.key)
    }

    /// Whether a cache hit can serve the request: an image, or data when decoding is avoided.
    private func isUsable(_ hit: ImageCacheResult) -> Bool {
        hit.image != nil || (request.options.contains(.avoidDecodeImage) && hit.data != nil)
    }

    private func stages(emit: @escaping ImageLoadEventHandler) async throws -> (ImageLoadResult, [StoreAction]) {
        let options = request.options
        var cached: ImageCacheResult?

        // 1. Cache query; for a variant request (thumbnail, scale-down, transformer) that
        //    misses, the full-size original under the original key.
        if !options.contains(.fromLoaderOnly) {
            if request.queryCacheType != .none {
                let hit = await request.cache.queryImage(forKey: request.key, options: options, context: request.context, cacheType: request.queryCacheType)
                try checkCancellation("querying the cache")
                if let hit, isUsable(hit) {
                    cached = hit
                    sink?.emit(.cacheHit(hit.cacheType))
                } else {
                    sink?.emit(.cacheMiss)
                }
            }
            if let cached, !options.contains(.refreshCached) {
                return (result(cached.image, data: cached.data, cacheType: cached.cacheType), [])
            }
            if cached == nil, request.isVariant, request.originalQueryCacheType != .none {
                // The request's context keeps its thumbnail size and scale-down budget: a disk
                // hit is decoded at that size (and, smaller than its data, not promoted).
                var originalContext = request.context
                originalContext.imageTransformer = nil
                originalContext.imageCacheKey = request.originalKey
                let original = await request.originalCache.queryImage(forKey: request.originalKey, options: options, context: originalContext, cacheType: request.originalQueryCacheType)
                try checkCancellation("querying the cache")
                if let sink { sink.emit(original.flatMap { $0.image == nil ? nil : .cacheHit($0.cacheType) } ?? .cacheMiss) }
                if let original, let image = original.image {
                    let fitted = try await fittedToRequest(image)
                    let (output, transformed) = try await transformIfAllowed(fitted)
                    try checkCancellation("transforming")
                    let unchanged = !transformed && !output.metadata.contains(.thumbnail)
                    var stores: [StoreAction] = []
                    if request.storeCacheType != .none {
                        let data = unchanged ? (serializedData(for: output, originalData: original.data) ?? original.data) : serializedData(for: output, originalData: nil)
                        stores.append(requestStore(output, data: data))
                    }
                    return (result(output, data: unchanged ? original.data : nil, cacheType: original.cacheType), stores)
                }
            }
        }

        // 2. The loader.
        if options.contains(.fromCacheOnly) {
            if let cached { return (result(cached.image, data: cached.data, cacheType: cached.cacheType), []) }
            throw WebImageError(.cacheMiss, "\(request.key) is not in the cache and fromCacheOnly forbids loading it", url: request.url)
        }
        var loaderContext = request.context
        loaderContext.imageCacheKey = request.originalKey
        guard request.loader.canRequestImage(for: request.url, options: options, context: loaderContext) else {
            if let cached { return (result(cached.image, data: cached.data, cacheType: cached.cacheType), []) }
            throw WebImageError(.unsupportedURL, "No image loader can request \(request.url.absoluteString)", url: request.url)
        }
        if let cached {
            // refreshCached: show the cached image now, then ask the loader again.
            emit(.cachedImage(result(cached.image, data: cached.data, cacheType: cached.cacheType)))
            loaderContext.loaderCachedImage = cached.image
        }
        let loaded: ImageLoaderResult
        sink?.emit(.loaderStarted)
        do {
            loaded = try await request.loader.requestImage(with: request.url, options: options, context: loaderContext) { event in
                switch event {
                case .progress(let received, let expected): emit(.progress(receivedBytes: received, expectedBytes: expected))
                case .partialImage(let image): emit(.partialImage(image))
                }
            }
        } catch {
            if Task.isCancelled || WebImageError.isCancellation(error) {
                throw WebImageError(.cancelled, "Operation cancelled by user during loading", underlyingError: error, url: request.url)
            }
            if let sink {
                sink.emit(.loaderFailed(ImageManager.webImageError(error, url: request.url)))
            }
            if let cached, (error as? WebImageError)?.code == .cacheNotModified {
                // "Not modified": the cached image stands; the request ends without a new image.
                return (result(cached.image, data: cached.data, cacheType: cached.cacheType), [])
            }
            if request.loader.shouldBlockFailedURL(request.url, error: error) {
                failedURLs.insert(request.url)
            }
            if var error = error as? WebImageError {
                if error.url == nil { error.url = request.url }
                throw error
            }
            throw WebImageError(.loaderFailed, "The loader failed for \(request.url.absoluteString): \(error)", underlyingError: error, url: request.url)
        }
        sink?.emit(.loaderFinished(bytes: loaded.data?.count ?? 0, statusCode: loaded.statusCode))
        try checkCancellation("loading")
        if options.contains(.retryFailed) { failedURLs.remove(request.url) }

        // 3. Validate, transform, store.
        guard let image = loaded.image else {
            if options.contains(.avoidDecodeImage), let data = loaded.data {
                let store = StoreAction(cache: request.cache, image: nil, data: data, key: request.originalKey, cacheType: request.storeCacheType, options: fullSizeOptions, context: fullSizeContext)
                return (result(nil, data: data, cacheType: .none, key: request.originalKey), request.storeCacheType == .none ? [] : [store])
            }
            throw WebImageError(.badImageData, loaded.data == nil ? "Image data is nil" : "The loader delivered data but no image", url: request.url)
        }
        guard !image.pixelSize.isEmpty else {
            throw WebImageError(.badImageData, "Downloaded image has 0 pixels", url: request.url)
        }

        var stores: [StoreAction] = []
        let (output, transformed) = try await transformIfAllowed(image)
        try checkCancellation("transforming")
        guard request.isVariant else {
            if request.storeCacheType != .none {
                let data = serializedData(for: image, originalData: loaded.data) ?? loaded.data
                stores.append(requestStore(image, data: data))
            }
            return (result(image, data: loaded.data, cacheType: .none), stores)
        }
        // A variant request: the full-size original under the original key (its data, and the
        // image when it was decoded whole), the request's image under its own key.
        let fullSize = !image.metadata.contains(.thumbnail)
        if request.originalStoreCacheType != .none {
            // The serializer sees full-size images only: it could re-encode a thumbnail.
            let data = fullSize ? (serializedData(for: image, originalData: loaded.data) ?? loaded.data) : loaded.data
            if fullSize || data != nil {
                stores.append(StoreAction(cache: request.originalCache, image: fullSize ? image : nil, data: data, key: request.originalKey, cacheType: request.originalStoreCacheType, options: fullSizeOptions, context: fullSizeContext))
            }
        }
        let unchanged = !transformed && fullSize
        if request.storeCacheType != .none {
            let data = unchanged ? (serializedData(for: output, originalData: loaded.data) ?? loaded.data) : serializedData(for: output, originalData: nil)
            stores.append(requestStore(output, data: data))
        }
        return (result(output, data: unchanged ? loaded.data : nil, cacheType: .none), stores)
    }

    /// The store of the request's image under its own key, with its options and context.
    private func requestStore(_ image: WebImage, data: Data?) -> StoreAction {
        StoreAction(cache: request.cache, image: image, data: data, key: request.key, cacheType: request.storeCacheType, options: request.options, context: request.context)
    }

    /// The request's flags without the scale-down: for storing the full-size original.
    private var fullSizeOptions: WebImageOptions {
        request.options.subtracting(.scaleDownLargeImages)
    }

    /// The request's context without its thumbnail size, scale-down budget and transformer, and
    /// with the original key: for storing the full-size original, so that a cache that decodes
    /// the stored data (a memory-only store of data) decodes it whole.
    private var fullSizeContext: WebImageContext {
        var context = request.context
        context.imageThumbnailPixelSize = nil
        context.imagePreserveAspectRatio = nil
        context.imageScaleDownLimitBytes = nil
        context.imageTransformer = nil
        if var decodeOptions = context.imageDecodeOptions {
            decodeOptions.thumbnailPixelSize = nil
            decodeOptions.scaleDownLimitBytes = nil
            context.imageDecodeOptions = decodeOptions
        }
        context.imageCacheKey = request.originalKey
        return context
    }

    /// `image`, a hit of the full-size original, at the request's thumbnail size or scale-down
    /// budget: a memory hit is full-size and is resampled here (every frame of an animation,
    /// keeping its timing); a disk hit was decoded at that size already and is returned as is.
    /// Resampling runs on ``BlockingWorkExecutor/processing``.
    private func fittedToRequest(_ image: WebImage) async throws -> WebImage {
        let decodeOptions = ImageDecodeOptions(options: request.options, context: request.context)
        let target = decodeOptions.targetPixelSize(for: image.pixelSize, frameCount: image.frameCount)
        guard target != image.pixelSize else { return image }
        do {
            return try await BlockingWorkExecutor.processing.run { try image.downscaled(to: target) }
        } catch is CancellationError {
            throw WebImageError.cancelled("Operation cancelled by user before making the thumbnail", url: request.url)
        } catch let error as WebImageError {
            throw error.url == nil ? WebImageError(error.code, error.message, underlyingError: error.underlyingError, url: request.url) : error
        }
    }

    /// Applies the transformer unless the request has none or the image is animated (without
    /// `transformAnimatedImage`) or vector (without `transformVectorImage`).
    ///
    /// With the transformer's ``ImageTransformer/preserveImageMetadata`` (the default) the output
    /// takes the source's ``WebImage/format``, ``WebImage/extendedData``, ``WebImage/colorProfile``
    /// and incremental and decoded flags, whatever the transformer set (SDWebImage's
    /// `SDImageCopyAssociatedObject` after a transform: "override from the full image"); without
    /// it, only what the transformer left unset (an undefined format, `nil` extended data, no
    /// profile) comes from the source. Every transformer goes through here, a third party's too.
    /// It is marked ``ImageMetadata/transformed``.
    /// - Returns: The image and whether it was transformed.
    /// The transformer runs on ``BlockingWorkExecutor/processing``, off the concurrency pool.
    private func transformIfAllowed(_ image: WebImage) async throws -> (WebImage, Bool) {
        guard let transformer = request.transformer else { return (image, false) }
        if image.isAnimated, !request.options.contains(.transformAnimatedImage) { return (image, false) }
        if image.metadata.contains(.vector), !request.options.contains(.transformVectorImage) { return (image, false) }
        let key = request.key
        do {
            let started = ContinuousClock.now
            var output = try await BlockingWorkExecutor.processing.run { try transformer.transform(image, forKey: key) }
            if let sink {
                sink.emit(.transformed(transformerKey: transformer.transformerKey, milliseconds: (ContinuousClock.now - started).milliseconds))
            }
            if transformer.preserveImageMetadata {
                output.format = image.format
                output.extras = image.extras  // extended data and colour profile
                output.metadata.subtract([.incremental, .decoded])
                output.metadata.formUnion(image.metadata.intersection([.incremental, .decoded]))
            } else {
                if output.format == .undefined { output.format = image.format }
                if output.extendedData == nil { output.extendedData = image.extendedData }
                if output.colorProfile == nil { output.colorProfile = image.colorProfile }
            }
            output.metadata.insert(.transformed)
            return (output, true)
        } catch is CancellationError {
            throw WebImageError.cancelled("Operation cancelled by user before transforming", url: request.url)
        } catch let error as WebImageError {
            throw error.url == nil ? WebImageError(error.code, error.message, underlyingError: error.underlyingError, url: request.url) : error
        } catch {
            throw WebImageError(.transformFailed, "\(transformer.transformerKey) failed on \(request.url.absoluteString): \(error)", underlyingError: error, url: request.url)
        }
    }

    private func serializedData(for image: WebImage, originalData: Data?) -> Data? {
        request.serializer?.cacheData(for: image, originalData: originalData, url: request.url)
    }
}
