public import Foundation
public import WebImageCore

/// ``MemoryCache`` as a one-tier ``ImageCache``: it serves the memory tier and ignores the
/// disk tier, so it can sit in a ``CachesManager`` or be given to one request.
///
/// Decisions: a store keeps the image and the data it is given (both count in the cost), so a
/// data-only store is a hit that carries data; the query options that concern the disk
/// (`queryMemoryData`, the sync variants) have nothing to do here. `decodeFirstFrameOnly`
/// turns an animated hit into its first frame.
extension MemoryCache: ImageCache {
    /// The entry for `key` when `cacheType` includes memory; its image, data and
    /// ``/WebImageCore/ImageCacheType/memory``. Never suspends.
    public func queryImage(forKey key: String, options: WebImageOptions, context: WebImageContext, cacheType: ImageCacheType) async -> ImageCacheResult? {
        guard cacheType.includesMemory, let entry = entry(forKey: key) else { return nil }
        var image = entry.image
        if options.contains(.decodeFirstFrameOnly), let animated = image, animated.isAnimated {
            image = animated.firstFrameOnly
        }
        return ImageCacheResult(image: image, data: entry.data, cacheType: .memory)
    }

    /// Stores the image and/or data when `cacheType` includes memory.
    /// - Throws: ``/WebImageCore/WebImageError/Code/invalidArgument`` when both are `nil`;
    ///   ``/WebImageCore/WebImageError/Code/cacheFailure`` when the entry's cost alone is over the limit.
    public func store(_ image: WebImage?, data: Data?, forKey key: String, options: WebImageOptions, context: WebImageContext, cacheType: ImageCacheType) async throws {
        try await beginStore(image, data: data, forKey: key, options: options, context: context, cacheType: cacheType)()
    }

    /// Does the whole store before it returns (the completion-handler `store` then has the
    /// entry in place when it returns); the rest only throws the store's error, if any.
    public func beginStore(_ image: WebImage?, data: Data?, forKey key: String, options: WebImageOptions, context: WebImageContext, cacheType: ImageCacheType) -> @Sendable () async throws -> Void {
        guard cacheType.includesMemory else { return {} }
        guard image != nil || data != nil else {
            let error = WebImageError(.invalidArgument, "MemoryCache.store for key \"\(key.prefix(200))\" got neither an image nor data")
            return { throw error }
        }
        let entry = Entry(image: image, data: data)
        guard setEntry(entry, forKey: key) else {
            let error = WebImageError(.cacheFailure, "MemoryCache did not store key \"\(key.prefix(200))\": its cost of \(entry.cost) bytes is over the cost limit of \(costLimit) bytes (or the count limit is 0)")
            return { throw error }
        }
        return {}
    }

    /// Removes the entry for `key` when `cacheType` includes memory.
    public func removeImage(forKey key: String, cacheType: ImageCacheType) async {
        guard cacheType.includesMemory else { return }
        removeEntry(forKey: key)
    }

    /// ``/WebImageCore/ImageCacheType/memory`` when `cacheType` includes memory and `key` is held, else `.none`.
    /// Does not change the eviction order.
    public func containsImage(forKey key: String, cacheType: ImageCacheType) async -> ImageCacheType {
        cacheType.includesMemory && contains(key) ? .memory : .none
    }

    /// Removes every entry when `cacheType` includes memory.
    public func clear(cacheType: ImageCacheType) async {
        guard cacheType.includesMemory else { return }
        removeAll()
    }
}
