import Foundation
import WebImageCore

/// The server's render stage: a loaded original in, an encoded result out and stored. Every
/// result the server makes passes here, in this order:
/// 1. the output format (``OutputFormatChoice/resolve(sourceFormat:sourceIsAnimated:coder:)``)
///    and quality;
/// 2. admission to the bounded transform queue (`503` when full);
/// 3. on a transform slot: the trim scan and the plan (checked against the output limit), the
///    operations (``ThumborRenderer``, starting from a reduced original when one is large
///    enough), the encode;
/// 4. the store in the result cache, under the result key, in the background.
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

    init(configuration: ImageServerConfiguration, coder: any ImageCoder, resultCache: (any ImageCache)?) {
        self.coder = coder
        self.resultCache = resultCache
        admission = TransformAdmission(concurrency: configuration.transformConcurrency, maximumQueued: configuration.maximumQueuedTransforms)
        reducedOriginals = ReducedOriginals(capacity: configuration.reducedOriginalsCapacity)
        defaultQuality = configuration.defaultQuality
        maximumOutputDimension = configuration.maximumOutputDimension
    }

    /// Renders `loaded`'s image for `thumbor`, encodes it and stores it under `resultKey`.
    /// - Parameters:
    ///   - beforeTransform: Awaited once admitted, before the transform runs (a test hook).
    func render(
        _ original: WebImage, originalKey: String, for thumbor: ThumborRequest, choice: OutputFormatChoice,
        maxAge: Int?, resultKey: String, beforeTransform: (@Sendable () async -> Void)? = nil
    ) async throws(ServingFailure) -> EncodedResult {
        let format = choice.resolve(sourceFormat: original.format, sourceIsAnimated: original.isAnimated, coder: coder)
        let quality = thumbor.filters.reduce(defaultQuality) { current, filter in
            if case .quality(let value) = filter { return value }
            return current
        }
        let maximumSide = maximumOutputDimension
        // The plan needs the trimmed region (a scan of the pixels), so it is made in the job.
        let renderer: @Sendable () throws -> ThumborRenderer = {
            let trimmed = thumbor.trim.flatMap { $0.region(in: original.bitmap) }
            let plan = thumbor.plan(sourceSize: original.pixelSize, trimmedRegion: trimmed)
            for size in [plan.size, plan.canvas].compactMap({ $0 }) where size.width > maximumSide || size.height > maximumSide {
                throw ServingFailure(400, "the result would be \(size), over the limit of \(maximumSide) pixels per side")
            }
            return ThumborRenderer(request: thumbor, plan: plan, format: format, quality: quality, keepsAnimation: format == .gif)
        }

        do {
            try admission.admit()
        } catch {
            throw ServingFailure(503, "the transform queue is full; retry shortly", retryAfter: 1)
        }
        defer { admission.release() }
        if let beforeTransform { await beforeTransform() }
        let coder = coder
        let reduced = reducedOriginals
        let variesWithAccept = choice.variesWithAccept
        let outcome: Result<EncodedResult, ServingFailure>
        do {
            outcome = try await admission.run {
                do {
                    let renderer = try renderer()
                    let bytes = try renderer.encode(renderer.render(original, reduced: reduced, key: originalKey), coder: coder)
                    return .success(EncodedResult(bytes: bytes, contentType: format.servedMediaType, etag: ImageServer.etag(of: bytes), variesWithAccept: variesWithAccept, maxAge: maxAge))
                } catch let failure as ServingFailure {
                    return .failure(failure)
                } catch {
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
