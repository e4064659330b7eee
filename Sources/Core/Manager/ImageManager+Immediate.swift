import Foundation

/// The fast path of both loading APIs: a request its cache can answer on the calling thread
/// (a memory hit) ends there, before any task, continuation or registration is made
/// (SDWebImage's and Nuke's synchronous memory check).
///
/// Every rule of a request holds, because the fast path runs after the request is prepared:
/// the options processor, the blocked-URL check, the cache key with its thumbnail,
/// scale-down and transformer parts, the cache key filter, and the context's cache and query
/// tier. Only an exact hit of the request's key ends it here; a variant request whose own key
/// misses goes the usual way (the original key, a resample or transform, the stores).
extension ImageManager {
    /// The result of `request` when its cache can give it on the calling thread: not
    /// `fromLoaderOnly`, not `refreshCached`, a query tier, and a usable hit (an image, or
    /// data with `avoidDecodeImage`). Reported to the event observers as the pipeline reports a
    /// cache hit (`started`, `cacheHit`, `finished`).
    /// - Parameter mayReadDisk: Whether the cache may read its disk tier here when the request
    ///   allows it (`queryMemoryDataSync`, `queryDiskDataSync`): the completion-handler API
    ///   honours them; the async API runs on the Swift concurrency pool, which must not block on
    ///   a file read and decode, so it asks for the memory tier's answer only (the flags are
    ///   left out of this query; the usual path reads the disk off the pool).
    /// The memory hit of a plain request, without preparing it: an empty context, no flag that
    /// changes the key (`scaleDownLargeImages`) or the answer (`queryMemoryData`,
    /// `decodeFirstFrameOnly`, `matchAnimatedImageClass`, `avoidDecodeImage`, `fromLoaderOnly`,
    /// `refreshCached`), no manager-wide options processor, cache key filter or transformer, no
    /// blocked URL at all, no event observer, and a cache that answers
    /// ``ImageCache/memoryHit(forKey:)``. The key is then the URL's absolute string, escaped:
    /// what ``prepare`` would give, found with no context copy, no URL hashing and no answer to
    /// unwrap. `nil` (a miss too) sends the request the usual way, which asks the cache again
    /// and answers any hit it finds.
    func plainMemoryHit(_ url: URL?, options: WebImageOptions, context: WebImageContext) -> ImageLoadResult? {
        guard context.isEmpty, let url,
              options.isDisjoint(with: [.fromLoaderOnly, .refreshCached, .scaleDownLargeImages, .queryMemoryData, .decodeFirstFrameOnly, .matchAnimatedImageClass, .avoidDecodeImage]),
              !hasKeyChangingSettings.load(ordering: .relaxed), failedURLSet.isEmpty, !eventHub.isObserved else { return nil }
        let absolute = url.absoluteString
        guard !absolute.isEmpty else { return nil }
        let key = Self.escapedKeyText(absolute)
        // A cancelled task goes the usual way, which refuses it (checked after the lookup: a
        // miss, the common case of a cancelled load too, costs nothing more).
        guard let image = imageCache.memoryHit(forKey: key), !Task.isCancelled else { return nil }
        return ImageLoadResult(image: image, data: nil, cacheType: .memory, url: url, cacheKey: key)
    }

    func immediateResult(for request: ImageLoadRequest, mayReadDisk: Bool) -> ImageLoadResult? {
        var options = request.options
        guard !options.contains(.fromLoaderOnly), !options.contains(.refreshCached), request.queryCacheType != .none else { return nil }
        if !mayReadDisk { options.subtract([.queryMemoryDataSync, .queryDiskDataSync]) }
        guard case .hit(let hit) = request.cache.queryImageImmediately(forKey: request.key, options: options, context: request.context, cacheType: request.queryCacheType),
              hit.image != nil || (options.contains(.avoidDecodeImage) && hit.data != nil) else { return nil }
        let result = ImageLoadResult(image: hit.image, data: hit.data, cacheType: hit.cacheType, url: request.url, cacheKey: request.key)
        if eventHub.isObserved, let sink = makeEventSink(requestID: coordinator.makeID(), url: request.url, cacheKey: request.key) {
            sink.emit(.started)
            sink.emit(.cacheHit(hit.cacheType))
            sink.emit(.end(of: .success(result), url: request.url))
        }
        return result
    }
}
