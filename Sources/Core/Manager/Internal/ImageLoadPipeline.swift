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

    /// Performs the steps ``ImageLoadFlow`` decides, reporting each one's events.
    private func stages(emit: @escaping ImageLoadEventHandler) async throws -> (ImageLoadResult, [StoreAction]) {
        var flow = ImageLoadFlow(
            url: request.url, key: request.key, options: request.options, queryCacheType: request.queryCacheType,
            originalQueryCacheType: request.originalQueryCacheType, isVariant: request.isVariant
        )
        var loaderContext = request.context
        loaderContext.imageCacheKey = request.originalKey
        var step = flow.start()
        while true {
            switch step {
            case .queryCache:
                let hit = await request.cache.queryImage(forKey: request.key, options: request.options, context: request.context, cacheType: request.queryCacheType)
                try checkCancellation("querying the cache")
                step = flow.cacheQueried(hit)
                sink?.emit(flow.cached.map { .cacheHit($0.cacheType) } ?? .cacheMiss)
            case .queryOriginal:
                let original = await queryOriginal()
                try checkCancellation("querying the cache")
                if let sink { sink.emit(original.flatMap { $0.image == nil ? nil : .cacheHit($0.cacheType) } ?? .cacheMiss) }
                step = flow.originalQueried(original)
            case .renderOriginal(let original, let image):
                return try await rendered(original: original, image: image)
            case .checkLoader:
                step = flow.loaderChecked(canRequest: request.loader.canRequestImage(for: request.url, options: request.options, context: loaderContext))
            case .load(let showing):
                if let showing {
                    // refreshCached: show the cached image now, then ask the loader again.
                    emit(.cachedImage(result(showing.image, data: showing.data, cacheType: showing.cacheType)))
                    loaderContext.loaderCachedImage = showing.image
                }
                sink?.emit(.loaderStarted)
                let loaded: ImageLoaderResult
                do {
                    loaded = try await request.loader.requestImage(with: request.url, options: request.options, context: loaderContext) { event in
                        switch event {
                        case .progress(let received, let expected): emit(.progress(receivedBytes: received, expectedBytes: expected))
                        case .partialImage(let image): emit(.partialImage(image))
                        }
                    }
                } catch {
                    step = flow.loadFailed(error, isCancelled: Task.isCancelled)
                    if let sink, !Self.isCancellation(step) {
                        sink.emit(.loaderFailed(ImageManager.webImageError(error, url: request.url)))
                    }
                    continue
                }
                sink?.emit(.loaderFinished(bytes: loaded.data?.count ?? 0, statusCode: loaded.statusCode))
                try checkCancellation("loading")
                if request.options.contains(.retryFailed) { failedURLs.remove(request.url) }
                step = flow.loaded(loaded)
            case .deliverData(let data):
                let store = StoreAction(cache: request.cache, image: nil, data: data, key: request.originalKey, cacheType: request.storeCacheType, options: fullSizeOptions, context: fullSizeContext)
                return (result(nil, data: data, cacheType: .none, key: request.originalKey), request.storeCacheType == .none ? [] : [store])
            case .renderLoaded(let image, let loaded):
                return try await rendered(loaded: image, data: loaded.data)
            case .deliverCached(let cached):
                return (result(cached.image, data: cached.data, cacheType: cached.cacheType), [])
            case .fail(let error, let loaderError):
                if let loaderError, request.loader.shouldBlockFailedURL(request.url, error: loaderError) {
                    failedURLs.insert(request.url)
                }
                throw error
            }
        }
    }

    /// Whether `step` ends the load as cancelled.
    private static func isCancellation(_ step: ImageLoadFlow.Step) -> Bool {
        if case .fail(let error, _) = step { return error.code == .cancelled }
        return false
    }

    /// The full-size original under the original key. The request's context keeps its
    /// thumbnail size and scale-down budget: a disk hit is decoded at that size (and, smaller
    /// than its data, not promoted).
    private func queryOriginal() async -> ImageCacheResult? {
        var originalContext = request.context
        originalContext.imageTransformer = nil
        originalContext.imageCacheKey = request.originalKey
        return await request.originalCache.queryImage(forKey: request.originalKey, options: request.options, context: originalContext, cacheType: request.originalQueryCacheType)
    }

    /// A hit of the full-size original, fitted to the request and transformed, with its store
    /// under the request's key.
    private func rendered(original: ImageCacheResult, image: WebImage) async throws -> (ImageLoadResult, [StoreAction]) {
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

    /// The loaded image, transformed, with its stores: under the request's key, and for a
    /// variant request the full-size original under the original key (its data, and the image
    /// when it was decoded whole).
    private func rendered(loaded image: WebImage, data loadedData: Data?) async throws -> (ImageLoadResult, [StoreAction]) {
        var stores: [StoreAction] = []
        let (output, transformed) = try await transformIfAllowed(image)
        try checkCancellation("transforming")
        guard request.isVariant else {
            if request.storeCacheType != .none {
                let data = serializedData(for: image, originalData: loadedData) ?? loadedData
                stores.append(requestStore(image, data: data))
            }
            return (result(image, data: loadedData, cacheType: .none), stores)
        }
        let fullSize = !image.metadata.contains(.thumbnail)
        if request.originalStoreCacheType != .none {
            // The serializer sees full-size images only: it could re-encode a thumbnail.
            let data = fullSize ? (serializedData(for: image, originalData: loadedData) ?? loadedData) : loadedData
            if fullSize || data != nil {
                stores.append(StoreAction(cache: request.originalCache, image: fullSize ? image : nil, data: data, key: request.originalKey, cacheType: request.originalStoreCacheType, options: fullSizeOptions, context: fullSizeContext))
            }
        }
        let unchanged = !transformed && fullSize
        if request.storeCacheType != .none {
            let data = unchanged ? (serializedData(for: output, originalData: loadedData) ?? loadedData) : serializedData(for: output, originalData: nil)
            stores.append(requestStore(output, data: data))
        }
        return (result(output, data: unchanged ? loadedData : nil, cacheType: .none), stores)
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
