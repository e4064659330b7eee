import Foundation
import WebImageCore

/// The server's render stage: a loaded original in, an encoded result out and stored. Every
/// result the server makes passes here, in this order:
/// 1. admission to the bounded transform queue (``admit()``, `503` when full), before the
///    source is loaded: a request the queue cannot take costs no fetch and no decode;
/// 2. the output format (``OutputFormatChoice/resolve(sourceFormat:sourceIsAnimated:coder:)``)
///    and quality (`autojpg()` may turn a PNG into JPEG once the pixels are known:
///    ``OutputFormatChoice/convertingOpaquePNG(_:sourceFormat:rendered:)``);
/// 3. on a transform slot: the trim scan and the plan (its `smart` crop moved by attention
///    when the server is set so; checked against the output limit and the filters' work limit), the operations (``ThumborRenderer``, starting from a reduced
///    original when one is large enough), the encode;
/// 4. the store in the result cache, under the result key, in the background.
///
/// A cancelled request (its deadline, or every requester of a shared production gone) stops:
/// waiting for a slot, or between the operations and rows of a running transform
/// (``/WebImageCore/BlockingWorkExecutor/isCurrentJobCancelled``).
///
/// The manager before it owns the original's stages (its keys, caches, coalescing); the server
/// around it owns the result's memory tier and the coalescing of identical results.
struct ResultRenderStage: Sendable {
    let coder: any ImageCoder
    let resultCache: (any ImageCache)?
    let admission: TransformAdmission
    let reducedOriginals: ReducedOriginals
    let defaultQuality: Int
    let maximumOutputDimension: Int
    let maximumFilterWork: Int
    let progressiveJPEG: ProgressiveJPEGMode
    let smartCrop: SmartCropMode
    /// Counts each render's starting point (``RenderSource``), when given.
    let metrics: ServerMetrics?

    init(configuration: ImageServerConfiguration, coder: any ImageCoder, resultCache: (any ImageCache)?, metrics: ServerMetrics? = nil) {
        self.coder = coder
        self.resultCache = resultCache
        self.metrics = metrics
        admission = TransformAdmission(concurrency: configuration.transformConcurrency, maximumQueued: configuration.maximumQueuedTransforms)
        // With shrink-on-load the server's reduced decodes take half of this capacity (ImageServer).
        reducedOriginals = ReducedOriginals(capacity: configuration.shrinksOnLoad ? configuration.reducedOriginalsCapacity / 2 : configuration.reducedOriginalsCapacity)
        defaultQuality = configuration.defaultQuality
        maximumOutputDimension = configuration.maximumOutputDimension
        maximumFilterWork = configuration.maximumFilterWork
        progressiveJPEG = configuration.progressiveJPEG
        smartCrop = configuration.smartCrop
    }

    /// Takes a place in the transform queue, before the source is loaded; every successful
    /// call is paired with ``release()``.
    /// - Throws: `503` with `Retry-After: 1` when the queue is full.
    func admit() throws(ServingFailure) {
        do {
            try admission.admit()
        } catch {
            throw ServingFailure(503, "the transform queue is full; retry shortly", retryAfter: 1)
        }
    }

    /// Gives the place ``admit()`` took back.
    func release() {
        admission.release()
    }

    /// Renders `original` for `thumbor`, encodes it and stores it under `resultKey`. The caller
    /// has been admitted (``admit()``).
    /// - Parameters:
    ///   - sourceSize: The source's full size when `original` is a reduced decode of it
    ///     (``ShrinkOnLoad``): the plan is made on it and mapped onto `original`'s pixels.
    ///   - startedFrom: Where `original` came from, counted in ``metrics`` (as
    ///     ``RenderSource/halvedCopy`` when the resize starts from a halved copy of it).
    ///   - filterImages: The loaded images of the `watermark(...)` and `frame(...)` filters, by
    ///     their URL as written (``FilterSourceLoads``).
    ///   - beforeTransform: Awaited once admitted, before the transform runs (a test hook).
    ///   - afterFilter: Called on the transform's thread after each filter (a test hook).
    func render(
        _ original: WebImage, sourceSize: PixelSize? = nil, startedFrom: RenderSource = .fullDecode, originalKey: String, for thumbor: ThumborRequest, choice: OutputFormatChoice,
        filterImages: [String: WebImage] = [:], maxAge: Int?, resultKey: String, beforeTransform: (@Sendable () async -> Void)? = nil,
        afterFilter: (@Sendable (Int) -> Void)? = nil
    ) async throws(ServingFailure) -> EncodedResult {
        let format = choice.resolve(sourceFormat: original.format, sourceIsAnimated: original.isAnimated, coder: coder)
        let quality = thumbor.filters.reduce(defaultQuality) { current, filter in
            if case .quality(let value) = filter { return value }
            return current
        }
        let maximumSide = maximumOutputDimension
        let maximumWorkLimit = maximumFilterWork
        let progressiveJPEG = progressiveJPEG
        let attention = smartCrop == .attention
        let metrics = metrics
        let halved = Locked(false)
        // The plan needs the trimmed region (a scan of the pixels), so it is made in the job.
        let renderer: @Sendable () throws -> ThumborRenderer = {
            let trimmed = thumbor.trim.flatMap { $0.region(in: original.bitmap) }
            // A reduced decode is planned on its source's size (never trimmed: ShrinkOnLoad).
            let planned = trimmed == nil ? sourceSize ?? original.pixelSize : original.pixelSize
            var plan = thumbor.plan(sourceSize: planned, trimmedRegion: trimmed)
            // `smart` requests are never shrunk on load: the attention scan sees the source's pixels.
            if attention { plan = thumbor.attentionPlan(plan, source: original.bitmap, trimmedRegion: trimmed) }
            for size in [plan.size, plan.canvas].compactMap({ $0 }) where size.width > maximumSide || size.height > maximumSide {
                throw ServingFailure(400, "the result would be \(size), over the limit of \(maximumSide) pixels per side")
            }
            let work = thumbor.filterWork(outputSize: plan.canvas ?? plan.size)
            guard work <= maximumWorkLimit else {
                throw ServingFailure(400, "the filters ask for \(work) pixel operations on a \(plan.canvas ?? plan.size) result, over the limit of \(maximumWorkLimit)")
            }
            return ThumborRenderer(request: thumbor, plan: plan, format: format, quality: quality, keepsAnimation: format == .gif && !thumbor.meta, plannedSourceSize: planned,
                                   progressiveJPEG: progressiveJPEG, afterFilter: afterFilter, onHalvedCopy: { halved.withLock { $0 = true } }, filterImages: filterImages, maximumSide: maximumSide, trimmedRegion: trimmed)
        }
        // thumbor's `autojpg()`: the format may change once the pixels are known.
        let convertsOpaquePNG = thumbor.filters.reduce(false) { current, filter in
            if case .autoJPG(let enabled) = filter { return enabled }
            return current
        }

        if let beforeTransform { await beforeTransform() }
        let coder = coder
        let reduced = reducedOriginals
        let variesWithAccept = choice.variesWithAccept
        let outcome: Result<EncodedResult, ServingFailure>
        do {
            outcome = try await admission.run {
                do {
                    var renderer = try renderer()
                    defer { metrics?.renderStarted(from: halved.withLock { $0 } ? .halvedCopy : startedFrom) }
                    if thumbor.meta {
                        // `/meta/`: the transformation runs (the result's size is in the JSON), nothing is encoded.
                        let bytes = try renderer.metadata(of: original, reduced: reduced, key: originalKey)
                        return .success(EncodedResult(bytes: bytes, contentType: ImageServer.metadataMediaType, etag: ImageServer.etag(of: bytes), variesWithAccept: false, maxAge: maxAge))
                    }
                    let rendered = try renderer.render(original, reduced: reduced, key: originalKey)
                    if convertsOpaquePNG {
                        renderer.format = choice.convertingOpaquePNG(format, sourceFormat: original.format, rendered: rendered)
                    }
                    let bytes = try renderer.encode(rendered, coder: coder)
                    return .success(EncodedResult(bytes: bytes, contentType: renderer.format.servedMediaType, etag: ImageServer.etag(of: bytes), variesWithAccept: variesWithAccept, maxAge: maxAge))
                } catch let failure as ServingFailure {
                    return .failure(failure)
                } catch {
                    // A transform that stopped because its request is gone.
                    if error is CancellationError || BlockingWorkExecutor.isCurrentJobCancelled {
                        return .failure(ServingFailure(503, "request cancelled during its transform", retryAfter: 1))
                    }
                    return .failure(ImageServer.transformFailure(error))
                }
            }
        } catch {
            throw ServingFailure(503, "request cancelled while waiting for a transform", retryAfter: 1)
        }
        let result = try outcome.get()
        if let resultCache {
            let rest = resultCache.beginStore(nil, data: result.bytes, forKey: resultKey, options: [], context: WebImageContext(), cacheType: .all)
            Task { try? await rest() }
        }
        return result
    }
}
