public import Foundation

/// Stores and finds images and their data by key (SDWebImage's `SDImageCache` protocol).
///
/// Swap in any cache (Redis, SQLite, a custom one) by giving it to the manager, to a
/// ``CachesManager``, or to one request with ``WebImageContext/imageCache``.
///
/// Every method may be called from any thread and concurrently. A cache never fails a load:
/// a read problem is a miss; a write problem is thrown from `store` for the caller to log.
/// Methods honour Swift task cancellation where they can.
public protocol ImageCache: Sendable {
    /// Looks up `key` in the tiers `cacheType` names.
    /// - Returns: The hit (image and/or data, and the tier it came from), or `nil` on a miss.
    func queryImage(forKey key: String, options: WebImageOptions, context: WebImageContext, cacheType: ImageCacheType) async -> ImageCacheResult?
    /// Stores `image` and/or `data` under `key` in the tiers `cacheType` names. With `data`
    /// `nil` the cache may encode the image itself.
    /// - Throws: ``WebImageError`` with ``WebImageError/Code/cacheFailure`` if nothing could be stored.
    func store(_ image: WebImage?, data: Data?, forKey key: String, options: WebImageOptions, context: WebImageContext, cacheType: ImageCacheType) async throws
    /// Removes `key` from the tiers `cacheType` names.
    func removeImage(forKey key: String, cacheType: ImageCacheType) async
    /// Which of the tiers `cacheType` names holds `key`: `.none` if none does. A cache of
    /// several tiers answers the first tier, in query order, that holds it (memory before
    /// disk: `.memory` when memory does, without asking the disk, as SDWebImage's
    /// `containsImageForKey:cacheType:completion:`); it may answer `.all` if it checks every
    /// tier at once.
    func containsImage(forKey key: String, cacheType: ImageCacheType) async -> ImageCacheType
    /// Removes everything from the tiers `cacheType` names.
    func clear(cacheType: ImageCacheType) async
    /// Answers a query on the calling thread, without suspending, when the cache can
    /// (SDWebImage's synchronous memory hit): a memory hit, and the reads the `...Sync` options
    /// allow on the caller's thread (`queryMemoryDataSync`: a memory hit's data;
    /// `queryDiskDataSync`: the disk). ``ImageManager``'s completion-handler API (and so
    /// ``ImageTarget``) asks this first and delivers a hit before the call returns.
    ///
    /// The default answers ``ImmediateCacheAnswer/unknown``: the manager then queries with
    /// ``queryImage(forKey:options:context:cacheType:)`` as usual. A cache that answers must
    /// answer as that query would (same hit, same tier), or `.unknown`.
    func queryImageImmediately(forKey key: String, options: WebImageOptions, context: WebImageContext, cacheType: ImageCacheType) -> ImmediateCacheAnswer
    /// The image a plain query of `key` (no options, every tier) would answer from the memory
    /// tier, looked up on the caller's thread with nothing else: the manager's fast path for a
    /// memory hit of a plain request. `nil` means "ask the usual way", not a miss.
    ///
    /// The default answers `nil`. A cache that answers must answer what
    /// ``queryImageImmediately(forKey:options:context:cacheType:)`` would (with `[]`, an empty
    /// context and ``ImageCacheType/all``) when that is a memory hit.
    func memoryHit(forKey key: String) -> WebImage?
    /// Starts a store: writes the tiers that take a write without waiting (a memory tier)
    /// before it returns, and returns the rest of the store (disk, network) for the caller to
    /// run (SDWebImage's `storeImage:...completion:` writes memory before it returns, then the
    /// disk on its I/O queue).
    ///
    /// The completion-handler ``store(_:data:forKey:options:context:cacheType:completion:)``
    /// calls it on the calling thread and runs the rest in its task, so that a memory lookup
    /// right after that call sees the image. It must not block: no I/O, no decoding, no
    /// waiting before it returns.
    ///
    /// Default: nothing happens before it returns; the rest is the whole
    /// ``store(_:data:forKey:options:context:cacheType:)``. A cache with a memory tier
    /// overrides it (``CachesManager`` forwards it to its members as its store policy says).
    /// - Returns: The rest of the store; it throws what `store` would throw. Running it is
    ///   what finishes the store: a caller that drops it has stored only the immediate part.
    func beginStore(_ image: WebImage?, data: Data?, forKey key: String, options: WebImageOptions, context: WebImageContext, cacheType: ImageCacheType) -> @Sendable () async throws -> Void
}

extension ImageCache {
    /// Answers ``ImmediateCacheAnswer/unknown``: the cache answers only through
    /// ``queryImage(forKey:options:context:cacheType:)``.
    public func queryImageImmediately(forKey key: String, options: WebImageOptions, context: WebImageContext, cacheType: ImageCacheType) -> ImmediateCacheAnswer {
        .unknown
    }

    /// `nil`: the manager asks the usual way.
    public func memoryHit(forKey key: String) -> WebImage? { nil }

    /// The default: nothing before returning; the rest is the whole asynchronous `store`.
    public func beginStore(_ image: WebImage?, data: Data?, forKey key: String, options: WebImageOptions, context: WebImageContext, cacheType: ImageCacheType) -> @Sendable () async throws -> Void {
        { try await self.store(image, data: data, forKey: key, options: options, context: context, cacheType: cacheType) }
    }

    /// Looks up `key` in every tier with no options.
    public func queryImage(forKey key: String, cacheType: ImageCacheType = .all) async -> ImageCacheResult? {
        await queryImage(forKey: key, options: [], context: WebImageContext(), cacheType: cacheType)
    }

    /// Stores in every tier with no options.
    public func store(_ image: WebImage?, data: Data? = nil, forKey key: String, cacheType: ImageCacheType = .all) async throws {
        try await store(image, data: data, forKey: key, options: [], context: WebImageContext(), cacheType: cacheType)
    }
}

/// A cache hit.
public struct ImageCacheResult: Sendable {
    /// The decoded image, or `nil` when only data was asked for (`avoidDecodeImage`).
    public var image: WebImage?
    /// The encoded data, when the tier has it or `queryMemoryData` asked for it.
    public var data: Data?
    /// The tier the hit came from (`.memory` or `.disk`; custom caches say what fits best).
    public var cacheType: ImageCacheType

    /// A hit in tier `cacheType`.
    public init(image: WebImage?, data: Data? = nil, cacheType: ImageCacheType) {
        self.image = image
        self.data = data
        self.cacheType = cacheType
    }
}

/// What a cache can say about a key on the calling thread, without suspending
/// (``ImageCache/queryImageImmediately(forKey:options:context:cacheType:)``).
public enum ImmediateCacheAnswer: Sendable {
    /// The hit, as ``ImageCache/queryImage(forKey:options:context:cacheType:)`` would give it.
    case hit(ImageCacheResult)
    /// None of the tiers asked holds the key.
    case miss
    /// The answer needs waiting (a disk read without a `...Sync` option, a network round trip):
    /// ask ``ImageCache/queryImage(forKey:options:context:cacheType:)``.
    case unknown
}
