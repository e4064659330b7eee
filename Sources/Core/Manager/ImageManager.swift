import Synchronization
public import Foundation

/// Loads images: cache query, load, decode, transform, store (SDWebImage's `SDWebImageManager`).
///
/// ```swift
/// let result = try await manager.loadImage(with: url, context: WebImageContext {
///     $0.imageThumbnailPixelSize = PixelSize(width: 200, height: 200)
/// })
/// ```
///
/// The flow, per request (SDWebImage's `SDWebImageManager` flow):
/// 1. A `nil` or empty URL fails at once with ``WebImageError/Code/invalidURL``.
/// 2. The options processor (the context's, else the manager's) may rewrite options and context.
/// 3. A URL that failed before and was blocked fails at once with
///    ``WebImageError/Code/blockedURL`` unless `retryFailed`.
/// 4. The cache key: see ``cacheKey(for:options:context:)`` (filter, then thumbnail, scale-down
///    and transformer parts); the *original* key is the base key alone
///    (``originalCacheKey(for:context:)``), the full-size image's.
/// 5. Unless `fromLoaderOnly`: query the cache (context `imageCache`, else ``imageCache``) in the
///    tiers of `queryCacheType` (default `.all`). A hit ends the request, unless `refreshCached`.
///    A variant request (a thumbnail size, a scale-down, or a transformer) that misses queries
///    the original key (`originalImageCache`, `originalQueryCacheType`, default `.all`) with its
///    thumbnail size and budget in the context: a disk hit is decoded at that size (and not
///    promoted to memory, where the full-size entry stays), a memory hit is resampled to it
///    (every frame of an animation); then it is transformed if asked and stored under the
///    request's key: no load.
/// 6. Unless `fromCacheOnly` (a miss then fails with ``WebImageError/Code/cacheMiss``): the
///    loader (context `imageLoader`, else ``imageLoader``) loads and decodes, reporting progress
///    and partial images. With `refreshCached` the cached image is delivered first as
///    ``ImageLoadEvent/cachedImage(_:)`` and handed to the loader as `loaderCachedImage`; a
///    "not modified" answer ends the request with the cached image.
///    A failure blocks the URL when the loader says so (never a cancellation or a transient
///    network error); a success with `retryFailed` unblocks it.
/// 7. The transformer, if any (skipped for animated images unless `transformAnimatedImage`, for
///    vector images unless `transformVectorImage`), then the stores. A plain request: the image
///    and its data under the key (`storeCacheType`, default `.all`). A variant request (the
///    rules of SDWebImage's thumbnail and transformer keys): the loaded original under the
///    original key (`originalStoreCacheType`, default `.disk`; its data, and the image when it
///    was decoded full-size), and the request's image under its own key (`storeCacheType`)
///    with the loaded data only if the image is that data unchanged (else the cache encodes
///    the thumbnail or transformed image). So a later plain, thumbnail or transformed request
///    of the same URL is made from the cached original, with no download.
///    A cache serializer (context, else manager) may choose the stored data; for the original
///    it sees full-size images only (it might re-encode a thumbnail). The result is
///    delivered before the stores finish, unless `waitStoreCache`. A store that fails does
///    not fail the request: it is reported as a ``ImageEvent/Kind/storeFailed(cacheType:key:error:)`` event.
///
/// Coalescing: concurrent requests that resolve to the same work share one run: one loader
/// request, one decode, one transform. The work is the cache key, the option flags that change
/// the image (not the scheduling ones such as `lowPriority` or `retryFailed`), and the values of
/// the context keys whose ``WebImageContextKey/effect`` is ``WebImageContextKeyEffect/load`` or
/// ``WebImageContextKeyEffect/decode`` (compared by equality, or by instance for classes). A
/// request whose context holds a key of ``WebImageContextKeyEffect/unknown`` effect, or such a
/// value that cannot be compared, runs on its own. Cancelling one requester never affects the
/// others; when the last one cancels, the run is cancelled and the loader sees it. A request
/// that arrives after a run delivered its result, while the run's cache stores go on, gets that
/// result at once, labelled with where its image really came from: ``ImageLoadResult/cacheType``
/// `.none` for a fresh load (not `.memory`: no cache served it), the original's tier for an
/// image transformed from a cached original.
///
/// Registration: a request is registered (and its work started) before its start call returns
/// (the completion-handler API; the async API before it first suspends), so ``cancelAll()``
/// cancels it and ``isRunning`` counts it even before its task runs.
///
/// Where work runs: loaders and caches decode through ``ImageDecodeRequest`` on
/// ``BlockingWorkExecutor/processing``, and the transformer runs there too, so CPU-heavy work
/// never occupies the Swift concurrency pool and a memory hit is answered while it runs.
///
/// Events: every request reports what happens to it, in order (``ImageEvent``: started, joined,
/// cache hit and tier or miss, loader started and finished with bytes and status, decoded,
/// transformed, stored or store failed, and its end: finished, failed or cancelled) to the
/// observers of ``addEventObserver(_:)`` and ``events(bufferingNewest:)``, each request under
/// its own id, coalesced ones included. Parts that serve a request (loaders, caches, coders)
/// report through its context's ``WebImageContext/imageEventSink``. With no observer no event
/// is made: the cost is one atomic load per request.
///
/// The memory fast path (SDWebImage's and Nuke's synchronous memory check): both APIs, once
/// the request is prepared (steps 1-4, so every override and the blocked-URL check apply), ask
/// the cache for an answer it can give on the caller's thread
/// (``ImageCache/queryImageImmediately(forKey:options:context:cacheType:)``), unless
/// `fromLoaderOnly` or `refreshCached` or no query tier. A usable hit of the request's own key
/// ends the request there: no task, no continuation, no registration (``isRunning`` never
/// counts it), and the events `started`, `cacheHit`, `finished`. The completion-handler API
/// then calls `completed` before it returns (on ``CallbackQueue/immediate``, the default, as
/// SDWebImage calls its completion synchronously for a memory hit; another callback queue
/// gets it asynchronously there); the async API returns without suspending. The async API asks
/// for the memory tier's answer only (it leaves `queryMemoryDataSync` and `queryDiskDataSync`
/// out of that query): a disk read and decode must not block the Swift concurrency pool.
///
/// Thread-safety: every method may be called from any thread. The pipeline runs in its own
/// task, never on the caller's thread; no user code runs under a lock.
public final class ImageManager: Sendable {
    /// The cache used when the request's context names none.
    public let imageCache: any ImageCache
    /// The loader used when the request's context names none.
    public let imageLoader: any ImageLoader

    private struct Settings {
        var cacheKeyFilter: (any CacheKeyFilter)?
        var cacheSerializer: (any CacheSerializer)?
        var optionsProcessor: (any OptionsProcessor)?
        var transformer: (any ImageTransformer)?
    }

    private let settings = Locked(Settings())
    /// Whether a setting changes a plain request's key or options (an options processor, a
    /// cache key filter or a transformer): kept with `settings`, read by the memory fast path
    /// with one atomic load.
    let hasKeyChangingSettings = Atomic<Bool>(false)
    let failedURLSet = FailedURLSet()
    let coordinator = LoadCoordinator()
    let eventHub = ObserverList<ImageEvent>()

    /// A manager over `cache` and `loader`. The shared manager, over the shared caches and
    /// loaders managers, is `ImageManager.shared` in the `SwiftWebImage` module.
    public init(cache: any ImageCache, loader: any ImageLoader) {
        self.imageCache = cache
        self.imageLoader = loader
    }

    /// The default cache key filter (the context's wins).
    public var cacheKeyFilter: (any CacheKeyFilter)? {
        get { settings.withLock { $0.cacheKeyFilter } }
        set { updateSettings { $0.cacheKeyFilter = newValue } }
    }
    /// The default cache serializer (the context's wins).
    public var cacheSerializer: (any CacheSerializer)? {
        get { settings.withLock { $0.cacheSerializer } }
        set { settings.withLock { $0.cacheSerializer = newValue } }
    }
    /// The default options processor (the context's wins).
    public var optionsProcessor: (any OptionsProcessor)? {
        get { settings.withLock { $0.optionsProcessor } }
        set { updateSettings { $0.optionsProcessor = newValue } }
    }
    /// The default transformer, applied to every request whose context names none.
    public var transformer: (any ImageTransformer)? {
        get { settings.withLock { $0.transformer } }
        set { updateSettings { $0.transformer = newValue } }
    }

    /// Changes the settings and ``hasKeyChangingSettings`` together.
    private func updateSettings(_ change: (inout Settings) -> Void) {
        settings.withLock { settings in
            change(&settings)
            hasKeyChangingSettings.store(settings.optionsProcessor != nil || settings.cacheKeyFilter != nil || settings.transformer != nil, ordering: .relaxed)
        }
    }

    // MARK: Blocked URLs

    /// The URLs blocked after a failure.
    public var failedURLs: Set<URL> { failedURLSet.all }
    /// Whether `url` is blocked after a failure.
    public func isFailedURL(_ url: URL) -> Bool { failedURLSet.contains(url) }
    /// Unblocks `url`.
    public func removeFailedURL(_ url: URL) { failedURLSet.remove(url) }
    /// Unblocks every URL.
    public func removeAllFailedURLs() { failedURLSet.removeAll() }

    // MARK: Running loads

    /// Cancels every load, running or about to run: every request whose start call has
    /// returned (for the async API: that has registered, which it does before it first
    /// suspends for the work). Each waiting requester gets a cancellation error at once.
    public func cancelAll() { coordinator.cancelAll() }

    /// Whether any load is registered: from the moment a request's start call returns (the
    /// completion-handler API; the async API once it registers) until the load's cache stores
    /// are done. A request answered at once from the cache registers nothing.
    public var isRunning: Bool { coordinator.loadCount > 0 }

    // MARK: Loading

    /// Loads the image at `url`.
    ///
    /// A memory hit of the request's key returns without suspending, before any task or
    /// registration is made (see the memory fast path above); a calling task already
    /// cancelled goes the usual way, and is refused.
    ///
    /// Cancelling the calling task ends this request at once with a
    /// ``WebImageError/Code/cancelled`` error; requests sharing its work go on.
    /// - Parameters:
    ///   - url: The image's URL; `nil` fails with ``WebImageError/Code/invalidURL``.
    ///   - options: The request's flags.
    ///   - context: Per-request overrides; its values win over the manager's.
    ///   - events: Progress, partial images, and with `refreshCached` the cached image; called
    ///     from the load's task, with no lock held.
    /// - Returns: The image (or with `avoidDecodeImage` its data) and where it came from.
    /// - Throws: ``WebImageError``.
    public func loadImage(
        with url: URL?,
        options: WebImageOptions = [],
        context: WebImageContext = WebImageContext(),
        events: ImageLoadEventHandler? = nil
    ) async throws -> ImageLoadResult {
        if let hit = plainMemoryHit(url, options: options, context: context) {
            return hit
        }
        let request: ImageLoadRequest
        do {
            request = try prepare(url, options: options, context: context)
        } catch {
            reportRefused(url, options: options, context: context, error: error)
            throw error
        }
        // The memory fast path: no task, no continuation, no registration (a cancelled task
        // goes the usual way, which refuses it).
        if !Task.isCancelled, let hit = immediateResult(for: request, mayReadDisk: false) {
            return hit
        }
        let workKey = workKey(for: request)
        let id = coordinator.makeID()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                submit(request, workKey: workKey, id: id, events: events, checksTaskCancellation: true) { continuation.resume(with: $0) }
            }
        } onCancel: {
            coordinator.leave(id: id)
        }
    }

    /// Registers request `id` with the coordinator and starts or joins its work, all before it
    /// returns (so ``cancelAll()`` and ``isRunning`` see it from then on). `resume` is called
    /// exactly once, with no lock held: at once when the request is refused (a cancelled task
    /// with `checksTaskCancellation`) or the result is in hand, else when the work ends or the
    /// request leaves.
    func submit(
        _ request: ImageLoadRequest,
        workKey: LoadWorkKey,
        id: UInt64,
        events: ImageLoadEventHandler?,
        checksTaskCancellation: Bool,
        resume: @escaping @Sendable (Result<ImageLoadResult, any Error>) -> Void
    ) {
        // No observer: no sink, no event (one atomic load).
        let sink = eventHub.isObserved ? makeEventSink(requestID: id, url: request.url, cacheKey: request.key) : nil
        sink?.emit(.started)
        let subscriber = LoadCoordinator.Subscriber(resume: resume, events: events, url: request.url)
        switch coordinator.join(workKey, id: id, subscriber: subscriber, sink: sink, checksTaskCancellation: checksTaskCancellation) {
        case .cancelled:
            sink?.emit(.cancelled)
            resume(.failure(WebImageError.cancelled("Operation cancelled by user before loading", url: request.url)))
        case .delivered(let result):
            // The load just finished and is storing: this request gets its result as it is,
            // labelled with where that image came from (`.none`: freshly loaded).
            sink?.emit(.joined)
            sink?.emit(.end(of: result, url: request.url))
            resume(result)
        case .joined:
            if let sink {
                // Reported before the work's events can reach this request.
                sink.emit(.joined)
                if let ended = coordinator.activate(id: id) { sink.emit(.end(of: ended, url: request.url)) }
            }
        case .started(let generation):
            start(request, workKey: workKey, generation: generation, observed: sink != nil)
        }
    }

    private func start(_ request: ImageLoadRequest, workKey: LoadWorkKey, generation: UInt64, observed: Bool) {
        let coordinator = coordinator
        let pipeline: ImageLoadPipeline
        if observed {
            // The pipeline and the parts report through the work's sink: to every requester
            // subscribed at that moment.
            let sink = ImageEventSink { kind in coordinator.broadcast(kind, key: workKey, generation: generation) }
            var observedRequest = request
            observedRequest.context.imageEventSink = sink
            pipeline = ImageLoadPipeline(request: observedRequest, failedURLs: failedURLSet, sink: sink)
        } else {
            pipeline = ImageLoadPipeline(request: request, failedURLs: failedURLSet, sink: nil)
        }
        let priority: TaskPriority? = request.options.contains(.highPriority) ? .high : request.options.contains(.lowPriority) ? .low : nil
        let task = Task(priority: priority) {
            await pipeline.run(
                emit: { event in coordinator.emit(event, key: workKey, generation: generation) },
                deliver: { result in coordinator.deliver(result, key: workKey, generation: generation) }
            )
            coordinator.finish(key: workKey, generation: generation)
        }
        coordinator.attach(task, to: workKey, generation: generation)
    }

    /// ``prepare(_:options:context:)``; a refused request is reported to the event observers
    /// and resumed with its error, and the result is `nil`.
    func prepareOrRefuse(_ url: URL?, options: WebImageOptions, context: WebImageContext, resume: @Sendable (Result<ImageLoadResult, any Error>) -> Void) -> ImageLoadRequest? {
        do {
            return try prepare(url, options: options, context: context)
        } catch {
            reportRefused(url, options: options, context: context, error: error)
            resume(.failure(error))
            return nil
        }
    }

    /// Validates the request and resolves its parts and keys.
    private func prepare(_ url: URL?, options: WebImageOptions, context: WebImageContext) throws -> ImageLoadRequest {
        guard let url, !url.absoluteString.isEmpty else {
            throw WebImageError(.invalidURL, "Image url is nil", url: url)
        }
        let defaults = settings.withLock { $0 }
        var options = options
        var context = context
        if let processor = context.optionsProcessor ?? defaults.optionsProcessor,
           let processed = processor.processedOptions(for: url, options: options, context: context) {
            options = processed.options
            context = processed.context
        }
        if !options.contains(.retryFailed), failedURLSet.contains(url) {
            throw WebImageError(.blockedURL, "Image url is blocked after an earlier failure: \(url.absoluteString) (pass retryFailed to try again)", url: url)
        }
        let transformer = context.imageTransformer ?? defaults.transformer
        let (key, originalKey) = Self.keys(for: url, options: options, context: context, cacheKeyFilter: defaults.cacheKeyFilter, transformer: transformer)
        context.imageCacheKey = key
        let cache = context.imageCache ?? imageCache
        return ImageLoadRequest(
            url: url,
            options: options,
            context: context,
            cache: cache,
            originalCache: context.originalImageCache ?? cache,
            loader: context.imageLoader ?? imageLoader,
            transformer: transformer,
            serializer: context.cacheSerializer ?? defaults.cacheSerializer,
            key: key,
            originalKey: originalKey,
            queryCacheType: context.queryCacheType ?? .all,
            storeCacheType: context.storeCacheType ?? .all,
            originalQueryCacheType: context.originalQueryCacheType ?? .all,
            originalStoreCacheType: context.originalStoreCacheType ?? .disk
        )
    }

    /// The work a request resolves to: its cache key, the option flags that change the work,
    /// and the values of its context keys that change the load or the decode, as the keys
    /// declare (``WebImageContextKey/effect``). A context that cannot be compared makes the
    /// request's work its own.
    func workKey(for request: ImageLoadRequest) -> LoadWorkKey {
        let identity = request.context.identity(for: [.load, .decode])
        return LoadWorkKey(
            cacheKey: request.key,
            options: request.options.subtracting(.workIndependent).rawValue,
            context: identity,
            unique: identity == nil ? coordinator.makeID() : nil
        )
    }
}
