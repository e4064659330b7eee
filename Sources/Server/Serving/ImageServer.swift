import Foundation
public import WebImageCore
import WebImageLoaders
public import SwiftWebImage

/// The image server's request handler: thumbor-style URLs in, transformed images out, with the
/// framework's caches, downloader and coders underneath.
///
/// It answers `GET` and `HEAD` (anything else is `405`):
/// - `/healthcheck` and `/health`: `200 WORKING` (thumbor's answer).
/// - `/metrics`: Prometheus text: `webimage_serve_requests_total{status}`,
///   `webimage_serve_request_duration_seconds` (histogram),
///   `webimage_serve_cache_hits_total{tier}` (``ImageServerCacheTier``: the server's memory
///   tier, the result cache's memory or disk tier (a Redis or SQLite cache reports itself as
///   disk), or another tier, and the original's tier for fresh results),
///   `webimage_serve_result_misses_total`, `webimage_serve_render_sources_total{source}`
///   (where an answer's pixels came from: `result-cache`, `shared`, `halved-copy`, `reduced-memory`,
///   `reduced-decode`, `full-memory`, `full-decode`), `webimage_serve_origin_fetches_total{source}`,
///   `webimage_serve_origin_bytes_total{source}`, `webimage_serve_origin_failures_total{source}`
///   (`source`: `http`, `file`, or a registered scheme; one fetch per coalesced load),
///   `webimage_serve_requests_in_flight`, `webimage_serve_transforms_in_flight`,
///   `webimage_serve_transform_queue_depth`, `webimage_serve_result_memory_entries` and `_bytes`.
/// - every other path: a thumbor URL (`/<signature|unsafe>/...`), answered with the image;
///   with `meta/` (`/unsafe/meta/300x200/a.jpg`), with thumbor's JSON metadata of the request
///   instead (`application/json`: the image's size, the crops, resize and flips, the target
///   size, the focal points, as thumbor 7.8 writes them), or with `?callback=NAME` the same as
///   JSONP (`text/javascript`, `NAME({...});`; a name that is not a dotted JavaScript
///   identifier is `400`). The source is loaded and transformed as for the image, through the
///   same limits, queue and caches; nothing is encoded.
///
/// The way of an image request:
/// 1. A path longer than ``ImageServerConfiguration/maximumURLLength`` is `414`.
/// 2. The server's memory tier of encoded results, keyed by the path as received and what
///    `Accept` allows, is asked on the calling thread: a hit is answered at once (no parse, no
///    signature check: a path is only stored there once it has been verified under this
///    server's configuration, which never changes). Steps 1 and 2 and the fixed paths are
///    also ``immediateResponse(to:)``, which an HTTP server asks before it starts a task: a
///    health check or a result in memory is answered in microseconds however busy the
///    transforms keep the task pool.
/// 3. The URL is parsed (`400` with the reason) and its signature checked: `/unsafe/` is `403`
///    unless ``ImageServerConfiguration/allowsUnsigned``; a signature that does not match the
///    key is `403`.
/// 4. The output format is chosen (see "Formats") and the result cache asked under the signed
///    part of the path and that choice; a hit is answered without loading or decoding.
/// 5. The source is resolved (http(s); without a scheme a file under the root, else
///    `host[:port]/path` over `http://` as thumbor's default loader; or a registered scheme;
///    see ``ImageServerConfiguration/fileRoot``) and loaded through ``manager``, with the server's own
///    loader in the request's context and the decode limits; the manager's caches keep the
///    original, and concurrent requests for one source share one fetch and one decode. The
///    images of `watermark(...)` and `frame(...)` filters are sources too: resolved with the
///    same rules before the result cache is asked, and loaded the same way alongside the
///    source.
/// 6. The server's one render stage takes the original: trim, crop, resize, flips and filters run (``ThumborRequest/plan(sourceSize:trimmedRegion:)``;
///    a resize of an opaque still source starts from a cached halved copy at least as large as
///    its target, see ``ImageServerConfiguration/reducedOriginalsCapacity``), and the result is
///    encoded, on a bounded queue
///    (``ImageServerConfiguration/transformConcurrency`` at once,
///    ``ImageServerConfiguration/maximumQueuedTransforms`` waiting, else `503` with
///    `Retry-After: 1`).
///    Identical requests that miss while a production runs wait for it: one load, one
///    transform, one encode.
/// 7. The bytes are stored in the memory tier and the result cache, and sent with
///    `Content-Type`, `Cache-Control: public, max-age=N`, a strong `ETag` (the first 128 bits
///    of the bytes' SHA-256), and `Vary: Accept` when the format was negotiated. A matching
///    `If-None-Match` gets `304`.
///
/// Formats: `format(jpeg|png|webp|avif|gif)` is used as asked (`400` when no encoder for it is
/// registered); no format or `format(auto)` negotiates: AVIF when `Accept` names `image/avif`
/// and the coder encodes AVIF, then WebP likewise, then the source's format (JPEG when it is no
/// web format or cannot be encoded). An animated source keeps its frames only when the output
/// is GIF (a negotiated animated GIF stays GIF); other outputs get its first frame. SVG sources
/// are refused (`422`) unless ``ImageServerConfiguration/allowsSVGSources`` (then the decoded,
/// rasterised image is served in a raster format); they are never passed through, and other
/// vector sources (PDF) are refused. The quality is `quality(N)` or
/// ``ImageServerConfiguration/defaultQuality``; `max_bytes(N)` lowers it as thumbor does (JPEG
/// and WebP only: the quality times 0.75 until the result fits, the first encoding when that
/// would go below 10). JPEG results have Huffman tables made for them and are progressive as
/// ``ImageServerConfiguration/progressiveJPEG`` says; `smart` crops as
/// ``ImageServerConfiguration/smartCrop`` says.
/// The encoders write no EXIF data, so `strip_exif()` holds already; they embed an ICC profile
/// only when the server keeps profiles (``ImageServerConfiguration/colorProfileHandling``), and
/// `strip_icc()` drops it.
///
/// Errors are short `text/plain` bodies with their status: 400 malformed URL or arguments, 403
/// unsigned, bad signature, or refused source, 404 missing source, 405 method, 413 source bytes
/// over the limit, 414 URL too long, 422 source pixels or frames over the limits or
/// undecodable, 502 origin failure, 503 queue full, 504 deadline
/// (``ImageServerConfiguration/requestTimeout``). A request whose task is cancelled (its client
/// hung up) stops its load and transform and is logged and counted as `499`. Each request ends
/// with one access-log entry (``ImageServerConfiguration/accessLog``).
///
/// `HEAD` gets the `GET` response, body included: the HTTP library sends the headers only.
///
/// Thread-safety: `respond(to:)` may be called from any thread, concurrently.
public final class ImageServer: ServerRequestHandler {
    /// The configuration it was made with.
    public let configuration: ImageServerConfiguration
    /// The manager that fetches, decodes and caches originals: its caches keep the originals and
    /// its coordinator coalesces. Made by the server with the server's loaders
    /// (``init(configuration:originalsCache:resultCache:coder:)``), or given, and then handed
    /// the server's loaders on every request.
    public let manager: ImageManager
    /// Where encoded results are kept (keyed by the request and the negotiated format), or `nil`.
    public let resultCache: (any ImageCache)?
    /// Encodes results and decodes sources (default: the shared coders manager; register the
    /// WebP and AVIF plug-in coders in it to serve those formats).
    public let coder: any ImageCoder

    let metrics: ServerMetrics
    /// Whether the manager's own loader is bypassed: the server's loaders go in each request's
    /// context (a manager from outside, ``init(configuration:manager:resultCache:coder:)``).
    let injectsLoaders: Bool
    let resultMemory: ResultMemoryTier
    /// Transform, encode and store of every result the server makes.
    let renderStage: ResultRenderStage
    /// The bounded transform queue (the render stage's).
    var admission: TransformAdmission { renderStage.admission }
    /// The halved copies of originals (the render stage's).
    var reducedOriginals: ReducedOriginals { renderStage.reducedOriginals }
    /// The result productions running, by result key: one production per result, shared by the
    /// identical requests that arrive while it runs. A production whose requesters all left
    /// (at their deadline) is cancelled: its load and its transform stop.
    let resultFlights = SharedWork<String, Result<(EncodedResult, ImageServerCacheTier), ServingFailure>>()
    /// What the result keys of this server carry besides the request: the source rules and
    /// limits that admitted a result (see ``resultKey(for:choice:)``).
    let resultKeyRules: String
    let sources: SourceResolver
    /// The coder sources are decoded with (under the memory budget, when there is one): the
    /// base of a shrink-on-load request's coder.
    let sourceDecoder: any ImageCoder
    /// The reduced decodes of shrink-on-load requests (``ShrinkOnLoad``), with their sources' sizes.
    let shrunkOriginals: ShrunkOriginals
    let signer: ThumborSigner?
    /// Test hooks (internal).
    let hooks = Locked(Hooks())

    /// What tests can hook into.
    struct Hooks {
        /// Awaited by each transform after it is admitted, before it runs.
        var beforeTransform: (@Sendable () async -> Void)?
        /// Called on a transform's thread after each filter, with the number applied so far.
        var afterFilter: (@Sendable (Int) -> Void)?
        /// Called with every source image after it is loaded (counts decodes when the manager
        /// decodes fresh).
        var afterLoad: (@Sendable (ImageLoadResult) -> Void)?
    }

    /// A server whose own manager keeps the originals in `originalsCache` and fetches them with
    /// the server's loaders: the guarded downloader for http(s) sources, the file loader under
    /// ``ImageServerConfiguration/fileRoot``, and ``ImageServerConfiguration/sourceLoaders`` for
    /// their schemes (a ``/WebImageCore/LoadersManager`` of them is the manager's loader, so a
    /// request has one path through the manager and no per-request loader override).
    /// - Parameters:
    ///   - configuration: Security, sources, limits and headers.
    ///   - originalsCache: Where the manager keeps decoded originals (memory and disk as the
    ///     caller built them).
    ///   - resultCache: Encoded results (data only), or `nil` for the memory tier alone.
    ///   - coder: Decodes sources and encodes results (default `CodersManager.shared`, from `SwiftWebImage`).
    public convenience init(configuration: ImageServerConfiguration, originalsCache: any ImageCache, resultCache: (any ImageCache)?, coder: any ImageCoder = CodersManager.shared) {
        let metrics = ServerMetrics()
        let sources = Self.makeSources(configuration: configuration, coder: coder, metrics: metrics)
        let loaders = LoadersManager([sources.fileLoader, sources.httpLoader] + sources.schemeLoaders.keys.sorted().compactMap { sources.schemeLoaders[$0] })
        self.init(configuration: configuration, manager: ImageManager(cache: originalsCache, loader: loaders), resultCache: resultCache, coder: coder,
                  sources: sources, metrics: metrics, injectsLoaders: false)
    }

    /// A server on `manager` (originals) and `resultCache` (encoded results). The manager keeps
    /// its own loader; the server hands it its loaders on every request (in the context), so the
    /// address guard and the size limit hold whatever loader the manager has.
    /// ``init(configuration:originalsCache:resultCache:coder:)`` gives the manager the server's
    /// loaders instead.
    /// - Parameters:
    ///   - configuration: Security, sources, limits and headers.
    ///   - manager: Its caches keep the originals (memory and disk as the caller built them).
    ///   - resultCache: Encoded results (data only), or `nil` for the memory tier alone.
    ///   - coder: Decodes sources and encodes results (default `CodersManager.shared`, from `SwiftWebImage`).
    public convenience init(configuration: ImageServerConfiguration, manager: ImageManager, resultCache: (any ImageCache)?, coder: any ImageCoder = CodersManager.shared) {
        let metrics = ServerMetrics()
        self.init(configuration: configuration, manager: manager, resultCache: resultCache, coder: coder,
                  sources: Self.makeSources(configuration: configuration, coder: coder, metrics: metrics), metrics: metrics, injectsLoaders: true)
    }

    private init(configuration: ImageServerConfiguration, manager: ImageManager, resultCache: (any ImageCache)?, coder: any ImageCoder,
                 sources: SourceResolver, metrics: ServerMetrics, injectsLoaders: Bool) {
        self.configuration = configuration
        self.manager = manager
        self.resultCache = resultCache
        self.coder = coder
        self.metrics = metrics
        self.sources = sources
        self.injectsLoaders = injectsLoaders
        resultMemory = ResultMemoryTier(capacity: configuration.resultMemoryCapacity)
        renderStage = ResultRenderStage(configuration: configuration, coder: coder, resultCache: resultCache, metrics: metrics)
        sourceDecoder = configuration.memoryBudget?.budgeting(coder) ?? coder
        // Half of the reduced copies' capacity (the render stage keeps the other half for its
        // halved copies), so that the caches stay within --memory-cache-mb.
        shrunkOriginals = ShrunkOriginals(capacity: configuration.shrinksOnLoad ? configuration.reducedOriginalsCapacity / 2 : 0)
        resultKeyRules = Self.sourceRulesTag(configuration)
        signer = configuration.securityKey.map { ThumborSigner(key: $0) }
    }

    /// The server's loaders for `configuration`: the guarded downloader, the file loader and
    /// the scheme loaders, each counted in `metrics`.
    private static func makeSources(configuration: ImageServerConfiguration, coder: any ImageCoder, metrics: ServerMetrics) -> SourceResolver {
        var downloads = configuration.downloaderConfiguration
        downloads.refusesNonPublicAddresses = !configuration.allowsPrivateSources
        downloads.maximumResponseSize = configuration.maximumSourceBytes
        if !configuration.allowedSourceHosts.isEmpty { downloads.maximumRedirects = 0 }
        // No origin fetch outlives the deadline of the request that started it: an origin that
        // never answers costs one connection for the deadline, not until an idle timeout.
        let deadline = configuration.requestTimeout.components
        let deadlineSeconds = Double(deadline.seconds) + Double(deadline.attoseconds) / 1e18
        downloads.totalTimeout = min(downloads.totalTimeout ?? deadlineSeconds, deadlineSeconds)
        // Sources decode under the memory budget, when there is one; results encode with `coder`.
        let decoder = configuration.memoryBudget?.budgeting(coder) ?? coder
        let downloader = Downloader(configuration: downloads, coder: decoder)
        let files = FileLoader(coder: decoder, maximumFileSize: configuration.maximumSourceBytes)
        var schemes: [String: any ImageLoader] = [:]
        for (scheme, loader) in configuration.sourceLoaders {
            schemes[scheme.lowercased()] = CountingLoader(loader, kind: scheme.lowercased(), metrics: metrics)
        }
        return SourceResolver(
            configuration: configuration,
            httpLoader: CountingLoader(downloader, kind: "http", metrics: metrics),
            fileLoader: CountingLoader(files, kind: "file", metrics: metrics),
            schemeLoaders: schemes
        )
    }

    /// Answers one request.
    ///
    /// When the calling task is cancelled (the client hung up), the request's load and
    /// transform stop, and the request is logged and counted with status `499` (nginx's
    /// "client closed request"), the status of the response returned too.
    public func respond(to request: ServerRequest) async -> ServerResponse {
        await handle(request, parsed: nil)
    }

    /// The answer to `request` when it needs no work, on the calling thread: what
    /// ``respond(to:)`` answers before it starts a request's work (steps 1 and 2 of an image
    /// request, shared with it): `/health` and `/healthcheck`, `/metrics`, a result in the
    /// server's memory tier (`200`, or `304` for a matching `If-None-Match`, with the headers
    /// it had when it was made), and the refusals of a method (`405`) or a path too long
    /// (`414`). `nil` for everything else, which ``respond(to:)`` answers.
    ///
    /// The memory tier holds only results whose URL passed every check of steps 3 to 5
    /// (parse, signature, limits, source rules, the output format's choice) under this
    /// server's configuration, which never changes, keyed by the path as received and what
    /// `Accept` allows: a hit is the answer those checks would lead to. Never blocks: one
    /// short lock, no disk, no await. An answer is logged and counted as ``respond(to:)``
    /// logs and counts its own (``ImageServerConfiguration/accessLog`` is then called on the
    /// calling thread: an HTTP server's).
    public func immediateResponse(to request: ServerRequest) -> ServerResponse? {
        let start = DispatchTime.now().uptimeNanoseconds
        guard case .answered(let response, let tier) = firstStep(request) else { return nil }
        metrics.requestStarted()
        return finished(request, response: response, tier: tier, start: start)
    }

    /// Answers `request` as ``respond(to:)`` does; with `parsed`, that thumbor request is
    /// served for an image path instead of parsing the path (its security is still checked).
    func handle(_ request: ServerRequest, parsed: ThumborRequest?) async -> ServerResponse {
        let start = DispatchTime.now().uptimeNanoseconds
        metrics.requestStarted()
        var (response, tier) = await route(request, parsed: parsed)
        if Task.isCancelled {
            // The requester is gone: whatever the work came to, nobody receives it.
            (response, tier) = (Self.failure(ServingFailure(499, "client closed request")), .none)
        }
        return finished(request, response: response, tier: tier, start: start)
    }

    /// Counts and logs the answer to `request`, begun at `start` (uptime nanoseconds).
    private func finished(_ request: ServerRequest, response: ServerResponse, tier: ImageServerCacheTier, start: UInt64) -> ServerResponse {
        let duration = Double(DispatchTime.now().uptimeNanoseconds &- start) / 1e9
        metrics.requestFinished(status: response.status, duration: duration, tier: tier)
        if let log = configuration.accessLog {
            log(ImageServerAccessLogEntry(method: request.method, path: request.path, status: response.status, bytes: response.body.count, duration: duration, cacheTier: tier, remoteAddress: request.remoteAddress))
        }
        return response
    }

    /// Where a request goes first.
    private enum FirstStep {
        /// Answered without work.
        case answered(ServerResponse, ImageServerCacheTier)
        /// An image request the memory tier could not answer: its key there, and what its
        /// `Accept` allows.
        case work(memoryKey: String, requested: AcceptedFormats)
    }

    /// Steps 1 and 2 (and the fixed paths): what needs no work, for ``route(_:parsed:)`` and
    /// ``immediateResponse(to:)`` alike.
    private func firstStep(_ request: ServerRequest) -> FirstStep {
        guard request.method == "GET" || request.method == "HEAD" else {
            var response = Self.failure(ServingFailure(405, "method \(request.method) is not allowed"))
            response.headers.append(("Allow", "GET, HEAD"))
            return .answered(response, .none)
        }
        guard request.path.utf8.count <= configuration.maximumURLLength else {
            return .answered(Self.failure(ServingFailure(414, "the path is \(request.path.utf8.count) bytes, over the limit of \(configuration.maximumURLLength)")), .none)
        }
        switch request.path {
        case "/healthcheck", "/health":
            return .answered(ServerResponse(status: 200, headers: [("Content-Type", "text/plain; charset=utf-8"), ("Cache-Control", "no-store")], body: Data("WORKING".utf8)), .none)
        case "/metrics":
            let text = metrics.exposition(queueDepth: admission.queueDepth, transformsInFlight: admission.inFlight, resultMemory: resultMemory.usage, memoryBudget: configuration.memoryBudget) + (configuration.additionalMetrics?() ?? "")
            return .answered(ServerResponse(status: 200, headers: [("Content-Type", "text/plain; version=0.0.4; charset=utf-8"), ("Cache-Control", "no-store")], body: Data(text.utf8)), .none)
        default:
            break
        }
        // Keyed by what the client asks for, so that a hit asks no coder anything.
        let requested = AcceptedFormats(header: request.header("Accept"))
        let memoryKey = request.path + "\n" + requested.tag
        if let hit = resultMemory.value(forKey: memoryKey) {
            return .answered(imageResponse(hit, for: request), .resultMemory)
        }
        return .work(memoryKey: memoryKey, requested: requested)
    }

    private func route(_ request: ServerRequest, parsed: ThumborRequest?) async -> (ServerResponse, ImageServerCacheTier) {
        let (memoryKey, requested): (String, AcceptedFormats)
        switch firstStep(request) {
        case .answered(let response, let tier):
            return (response, tier)
        case .work(let key, let formats):
            (memoryKey, requested) = (key, formats)
        }
        let accept = requested.encodable(by: coder)
        return await DeadlineRace.run(deadline: configuration.requestTimeout) {
            do {
                return try await self.serveImage(request, parsed: parsed, accept: accept, memoryKey: memoryKey)
            } catch {
                return (Self.failure(error), .none)
            }
        } onTimeout: {
            (Self.failure(ServingFailure(504, "the request took longer than the deadline of \(self.configuration.requestTimeout)")), .none)
        }
    }

    /// Steps 3 to 7 of an image request.
    private func serveImage(_ request: ServerRequest, parsed: ThumborRequest?, accept: AcceptedFormats, memoryKey: String) async throws(ServingFailure) -> (ServerResponse, ImageServerCacheTier) {
        let thumbor: ThumborRequest
        if let parsed {
            thumbor = parsed
        } else {
            do {
                thumbor = try ThumborURLParser.parse(request.path)
            } catch {
                throw ServingFailure(400, "malformed thumbor URL: \(error.message)")
            }
        }
        try authorise(thumbor)
        if let width = thumbor.width, width > configuration.maximumOutputDimension {
            throw ServingFailure(400, "width \(width) is over the limit of \(configuration.maximumOutputDimension) pixels")
        }
        if let height = thumbor.height, height > configuration.maximumOutputDimension {
            throw ServingFailure(400, "height \(height) is over the limit of \(configuration.maximumOutputDimension) pixels")
        }
        if thumbor.filters.count > configuration.maximumFilterCount {
            throw ServingFailure(400, "the URL names \(thumbor.filters.count) filters, over the limit of \(configuration.maximumFilterCount)")
        }
        // The source rules hold for every answer, a cached one included: for the images of
        // `watermark(...)` and `frame(...)` as for the source.
        let source = try sources.resolve(thumbor.source)
        let filterSources = try FilterSourceLoads(for: thumbor, resolver: sources, allowsSVG: configuration.allowsSVGSources)
        let requestedFormat = thumbor.filters.reduce(ThumborOutputFormat?.none) { current, filter in
            if case .format(let format) = filter { return format }
            return current
        }
        // A `meta/` answer is JSON whatever the format: nothing to negotiate or refuse.
        let choice: OutputFormatChoice = thumbor.meta ? .negotiated(.source) : try OutputFormatChoice.choose(format: requestedFormat, accept: accept, coder: coder)
        let maxAge = thumbor.filters.reduce(Int?.none) { current, filter in
            if case .maxAge(let seconds) = filter { return seconds }
            return current
        }
        let resultKey = resultKey(for: thumbor, choice: choice)

        if let resultCache, let cached = await resultCache.queryImage(forKey: resultKey, options: [.avoidDecodeImage], context: WebImageContext(), cacheType: .all), let bytes = cached.data, !bytes.isEmpty {
            let result = EncodedResult(bytes: bytes, contentType: thumbor.meta ? Self.metadataMediaType : ImageFormat.detect(bytes).servedMediaType, etag: Self.etag(of: bytes),
                                       variesWithAccept: choice.variesWithAccept && !thumbor.meta, maxAge: maxAge)
            resultMemory.set(result, forKey: memoryKey)
            let tier: ImageServerCacheTier = switch cached.cacheType {
            case .memory: .resultCacheMemory
            case .disk: .resultDisk
            default: .resultOther
            }
            return (imageResponse(result, for: request), tier)
        }
        metrics.resultMissed()
        try Task.checkCancellation(or: ServingFailure(503, "request cancelled", retryAfter: 1))
        // One production per result: identical requests that arrive while it runs wait for it.
        let outcome: Result<(EncodedResult, ImageServerCacheTier), ServingFailure>
        // Whether this request's production ran (else it joined an identical one in flight).
        let produced = Locked(false)
        do {
            outcome = try await resultFlights.value(for: resultKey) {
                produced.withLock { $0 = true }
                do throws(ServingFailure) {
                    return .success(try await self.produce(thumbor, source: source, filterSources: filterSources, choice: choice, maxAge: maxAge, resultKey: resultKey))
                } catch {
                    return .failure(error)
                }
            }
        } catch {
            // Only a cancelled requester gets here (the production's own failures are values).
            throw ServingFailure(503, "request cancelled", retryAfter: 1)
        }
        if !produced.withLock({ $0 }) { metrics.renderStarted(from: .shared) }
        let (result, tier) = try outcome.get()
        resultMemory.set(result, forKey: memoryKey)
        return (imageResponse(result, for: request), tier)
    }

    /// Loads the source, and the filters' images with it (``FilterSourceLoads``), through the
    /// manager (the original's stages: its keys, caches and coalescing) and hands them to the
    /// ``renderStage`` (transform, encode, store in the result cache): the work of a
    /// result-cache miss, run once for identical concurrent requests (in a task of its own, so
    /// a requester that leaves, at its deadline, does not stop it for the others; the result is
    /// cached either way).
    private func produce(_ thumbor: ThumborRequest, source: SourceResolver.Resolved, filterSources: FilterSourceLoads, choice: OutputFormatChoice, maxAge: Int?, resultKey: String) async throws(ServingFailure) -> (EncodedResult, ImageServerCacheTier) {
        // Admitted to the transform queue before the source is loaded and decoded.
        try renderStage.admit()
        defer { renderStage.release() }
        let budget = configuration.memoryBudget
        var context = originalContext(loader: source.loader)
        // Shrink-on-load (ShrinkOnLoad): a reduced decode that covers this request, from the
        // source's bytes (the disk cache's, the file's or the origin's), never from a whole
        // original in memory, and never stored in the originals' cache: the server keeps it
        // (ShrunkOriginals). Filter images load whole.
        let shrink = configuration.shrinksOnLoad && ShrinkOnLoad.isEligible(thumbor, url: source.url, smart: configuration.smartCrop)
            ? ShrinkOnLoadCoder(base: sourceDecoder, plan: { thumbor.plan(sourceSize: $0) }) : nil
        var shrunkOriginalKey: String?
        if let shrink {
            context.imageCoder = shrink
            context.imageTransformer = ShrinkOnLoadMarker(transformerKey: ShrinkOnLoad.variantKey(for: thumbor))
            context.queryCacheType = ImageCacheType.none
            context.storeCacheType = ImageCacheType.none
            context.originalQueryCacheType = .disk
            // The source's bytes are stored on disk (and a Redis hit copied to the local disk).
            context.originalStoreCacheType = .disk
            shrunkOriginalKey = manager.originalCacheKey(for: source.url, context: context) ?? source.url.absoluteString
        }
        // A held copy at the scale this request needs (ShrunkOriginals: by the source's headers).
        let shrunkHit = shrunkOriginalKey.flatMap { key in shrunkOriginals.value(originalKey: key, plan: { thumbor.plan(sourceSize: $0) }) }
        let sourceContext = context
        let outcome = await filterSources.load(alongside: source, source: { [self] resolved in
            if let shrunkHit {
                return ImageLoadResult(image: shrunkHit.entry.image, data: nil, cacheType: .memory, url: resolved.url, cacheKey: shrunkHit.key)
            }
            return try await manager.loadImage(with: resolved.url, options: [.retryFailed], context: sourceContext)
        }, with: { [self] resolved in
            try await manager.loadImage(with: resolved.url, options: [.retryFailed], context: originalContext(loader: resolved.loader))
        }, release: { budget?.releaseDecode(of: $0) })
        let loaded: ImageLoadResult
        do {
            loaded = try outcome.source.get()
        } catch {
            throw ServingFailure.forLoad(error, source: thumbor.source)
        }
        hooks.withLock { $0.afterLoad }?(loaded)
        let filterImages: [String: WebImage]
        switch outcome.images {
        case .success(let images): filterImages = images
        case .failure(let failure):
            // A filter image that failed ends the request: the source's hold on the budget too.
            if let original = loaded.image { budget?.releaseDecode(of: original) }
            throw failure
        }
        // The filter images' holds on the memory budget end with this request's render.
        defer { for image in filterImages.values { budget?.releaseDecode(of: image) } }
        guard let original = loaded.image else {
            throw ServingFailure(502, "source \(thumbor.source) gave no image")
        }
        // The decode's hold on the memory budget ends with this request's render.
        defer { configuration.memoryBudget?.releaseDecode(of: original) }
        if original.format == .svg || original.metadata.contains(.vector) {
            guard original.format == .svg, configuration.allowsSVGSources else {
                let kind = original.format == .svg ? "SVG" : "a vector image (\(original.format))"
                throw ServingFailure(422, "source \(thumbor.source) is \(kind): vector sources are refused\(original.format == .svg ? " (allowsSVGSources, webimage serve --allow-svg, rasterises them)" : "")")
            }
        }
        var sourceSize: PixelSize?
        // Where the render starts (webimage_serve_render_sources_total).
        var startedFrom: RenderSource = loaded.cacheType == .memory ? .fullMemory : .fullDecode
        if let shrunkOriginalKey {
            if let shrunkHit {
                sourceSize = shrunkHit.entry.sourceSize
                startedFrom = shrunkHit.entry.image.pixelSize == shrunkHit.entry.sourceSize ? .fullMemory : .reducedMemory
            } else if let properties = shrink?.sourceProperties ?? shrunkOriginals.properties(originalKey: shrunkOriginalKey) {
                // (A load shared with an identical request ran that request's coder.)
                sourceSize = properties.orientedPixelSize
                shrunkOriginals.store(original, properties: properties, originalKey: shrunkOriginalKey)
                if properties.orientedPixelSize != original.pixelSize { startedFrom = .reducedDecode }
            }
        }
        let result = try await renderStage.render(
            original, sourceSize: sourceSize, startedFrom: startedFrom, originalKey: loaded.cacheKey, for: thumbor, choice: choice, filterImages: filterImages, maxAge: maxAge, resultKey: resultKey,
            beforeTransform: hooks.withLock { $0.beforeTransform }, afterFilter: hooks.withLock { $0.afterFilter }
        )
        let tier: ImageServerCacheTier = switch loaded.cacheType {
        case .memory: .originalMemory
        case .disk: .originalDisk
        default: .none
        }
        return (result, tier)
    }

    /// Accepts the request's signature (or `unsafe`), or throws `403`.
    private func authorise(_ thumbor: ThumborRequest) throws(ServingFailure) {
        switch thumbor.security {
        case .unsafe:
            guard configuration.allowsUnsigned else {
                throw ServingFailure(403, "unsigned (/unsafe/) URLs are not allowed on this server")
            }
        case .signed(let signature):
            guard let signer else {
                throw ServingFailure(403, "signed URLs cannot be checked: the server has no security key")
            }
            guard signer.isValid(signature: signature, for: thumbor.signedPart) else {
                throw ServingFailure(403, "bad signature")
            }
        }
    }

    /// The context of an original's load: the server's loader and the decode limits.
    private func originalContext(loader: any ImageLoader) -> WebImageContext {
        var context = WebImageContext()
        if injectsLoaders { context.imageLoader = loader }
        context.imageMaxPixelCount = configuration.maximumSourcePixels
        context.imageMaxTotalPixelCount = configuration.maximumTotalSourcePixels
        context.imageMaxFrameCount = configuration.maximumSourceFrames
        if configuration.colorProfileHandling != .convertToSRGB { context.imageColorProfileHandling = configuration.colorProfileHandling }
        return context
    }

    /// The result cache's key: the signed part of the path (the same for the signed and the
    /// unsafe form of one request), the output format's choice, and `|ColorProfile(keep)` for a
    /// server that keeps colour profiles (servers of a fleet sharing a result cache may differ).
    /// This server's result key of `request`: ``resultKey(for:choice:colorProfileHandling:)``
    /// with the server's profile handling, and `|rules:` with a digest of the source rules and
    /// limits that admitted the result (private sources, the host allow-list, the file root and
    /// its HTTP fallback, the schemes, the source limits). A server whose rules are tighter, or a restart with
    /// tighter rules, never answers from a result another rule set admitted (servers sharing a
    /// Redis result cache included). A `smart` request on a server with the attention crop
    /// (``ImageServerConfiguration/smartCrop``) adds `|SmartCrop(attention)`.
    func resultKey(for request: ThumborRequest, choice: OutputFormatChoice) -> String {
        let smart = request.smart && configuration.smartCrop == .attention ? "|SmartCrop(attention)" : ""
        return Self.resultKey(for: request, choice: choice, colorProfileHandling: configuration.colorProfileHandling) + smart + "|rules:" + resultKeyRules
    }

    /// The digest of `configuration`'s source rules and limits, for result keys.
    static func sourceRulesTag(_ configuration: ImageServerConfiguration) -> String {
        let rules = [
            "private=\(configuration.allowsPrivateSources)",
            "hosts=" + configuration.allowedSourceHosts.map { $0.lowercased() }.sorted().joined(separator: ","),
            "root=" + (configuration.fileRoot?.standardizedFileURL.path ?? ""),
            "schemes=" + configuration.sourceLoaders.keys.map { $0.lowercased() }.sorted().joined(separator: ","),
            "addresses=" + configuration.downloaderConfiguration.allowedNonPublicAddresses.sorted().joined(separator: ","),
            "limits=\(configuration.maximumSourceBytes),\(configuration.maximumSourcePixels),\(configuration.maximumTotalSourcePixels),\(configuration.maximumSourceFrames)",
        ].joined(separator: "\n")
            // Only when on, so that the keys of servers without it stay as they were.
            + (configuration.fetchesMissingFilesOverHTTP ? "\nmissing-files-over-http" : "")
        return String(SHA256.hash(Data(rules.utf8)).hexString.prefix(16))
    }

    static func resultKey(for request: ThumborRequest, choice: OutputFormatChoice, colorProfileHandling: ColorProfileHandling = .convertToSRGB) -> String {
        let part = request.signedPart.isEmpty ? String(describing: request) : request.signedPart
        let profile = colorProfileHandling == .keep ? "|ColorProfile(keep)" : ""
        return "webimage-serve:" + part + "|" + choice.keyComponent + profile
    }

    /// The strong ETag of `bytes`: the first 128 bits of their SHA-256, quoted.
    static func etag(of bytes: Data) -> String {
        "\"" + SHA256.hash(bytes).hexString.prefix(32) + "\""
    }

    /// A 200 (or 304 when `If-None-Match` matches) for `result`.
    func imageResponse(_ result: EncodedResult, for request: ServerRequest) -> ServerResponse {
        var result = result
        if result.contentType == Self.metadataMediaType {
            // `?callback=NAME` wraps `/meta/` JSON as JSONP, per request (the cached JSON is the plain one).
            do {
                result = try Self.metadataResponse(result, query: request.query)
            } catch {
                return Self.failure(error)
            }
        }
        var headers: [(name: String, value: String)] = [
            ("Content-Type", result.contentType),
            ("Cache-Control", Self.cacheControl(maxAge: result.maxAge ?? configuration.cacheMaxAge)),
            ("ETag", result.etag),
        ]
        if result.variesWithAccept { headers.append(("Vary", "Accept")) }
        if let condition = request.header("If-None-Match"), Self.matches(condition, etag: result.etag) {
            headers.removeFirst()
            return ServerResponse(status: 304, headers: headers)
        }
        return ServerResponse(status: 200, headers: headers, body: result.bytes)
    }

    /// `public, max-age=N`, or `no-cache` for 0 (`max_age(0)`: the client must revalidate).
    static func cacheControl(maxAge: Int) -> String {
        maxAge > 0 ? "public, max-age=\(maxAge)" : "no-cache"
    }

    /// Whether an `If-None-Match` value names `etag` (weak comparison, as RFC 9110 asks for
    /// `If-None-Match`), or is `*`.
    static func matches(_ condition: String, etag: String) -> Bool {
        for candidate in condition.split(separator: ",") {
            var tag = candidate.trimmingCharacters(in: .whitespaces)
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag.removeFirst(2) }
            if tag == etag { return true }
        }
        return false
    }

    /// An error response.
    static func failure(_ error: any Error) -> ServerResponse {
        let failure = error as? ServingFailure ?? ServingFailure(500, "internal error")
        var headers: [(name: String, value: String)] = [("Content-Type", "text/plain; charset=utf-8"), ("Cache-Control", "no-store")]
        if let retryAfter = failure.retryAfter { headers.append(("Retry-After", String(retryAfter))) }
        return ServerResponse(status: failure.status, headers: headers, body: failure.body)
    }

    /// The status of an error thrown while transforming or encoding: a bad argument is the
    /// URL's fault (`400`), anything else the server's (`500`).
    static func transformFailure(_ error: any Error) -> ServingFailure {
        if let error = error as? WebImageError {
            switch error.code {
            case .invalidArgument, .transformFailed:
                return ServingFailure(400, "the transform cannot be done: \(error.message)")
            case .imageTooLarge:
                return ServingFailure(422, "the result is over the limits: \(error.message)")
            default:
                return ServingFailure(500, "the result could not be encoded")
            }
        }
        return ServingFailure(500, "the transform failed")
    }
}

extension Task where Success == Never, Failure == Never {
    /// Throws `failure` when the current task is cancelled.
    fileprivate static func checkCancellation(or failure: ServingFailure) throws(ServingFailure) {
        if isCancelled { throw failure }
    }
}
