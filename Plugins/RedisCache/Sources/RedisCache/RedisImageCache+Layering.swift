public import WebImageCore
public import WebImageCaches

extension RedisImageCache {
    /// The recommended setup: an in-process ``/WebImageCaches/MemoryCache`` in front of this
    /// cache, as one ``/WebImageCore/CachesManager``.
    ///
    /// ```swift
    /// let redis = RedisImageCache(configuration: .init(host: "10.0.0.5"), coder: CodersManager.shared)
    /// let cache = redis.makeLayeredCache(memoryCache: MemoryCache(costLimit: 256 << 20))
    /// let manager = ImageManager(cache: cache, loader: LoadersManager.shared)
    /// ```
    ///
    /// - Query: ``/WebImageCore/CachesManager/Policy/serial``, memory first (the memory cache is
    ///   the highest member): a memory hit never touches the network; a miss asks Redis.
    /// - Store: ``/WebImageCore/CachesManager/Policy/concurrent``: to both at once. When Redis
    ///   fails, the memory cache still stores and the manager's store throws Redis's
    ///   `cacheFailure` (which `ImageManager` ignores).
    /// - Contains: serial, memory first. Remove and clear: both, concurrently (clear empties
    ///   the memory cache and this cache's namespace in Redis).
    /// - Redis hits are promoted into the memory cache: this method sets ``promotionCache``.
    ///
    /// Every server of a fleet builds its own layered cache (its own memory) over the same
    /// Redis server and namespace.
    /// - Parameter memoryCache: The front tier (default: a ``/WebImageCaches/MemoryCache`` with
    ///   its default limits).
    /// - Returns: A new manager over the two; the memory cache is its highest member.
    public func makeLayeredCache(memoryCache: MemoryCache = MemoryCache()) -> CachesManager {
        makeLayeredCache(over: memoryCache, promotingInto: memoryCache)
    }

    /// The same layering with any local cache in front (for example a
    /// ``/WebImageCaches/WebImageCache``, memory and disk): `front` is asked first, Redis after
    /// it; stores, removals and clears go to both at once.
    /// - Parameters:
    ///   - front: The local cache, the manager's highest member.
    ///   - memoryCache: Where Redis hits are promoted (sets ``promotionCache``), or `nil` for none.
    ///   - copyingHitsToDisk: Whether the data of Redis hits is also written to `front`'s disk
    ///     tier (sets ``hitCopyCache``; default `false`), so that what a server got from Redis
    ///     survives Redis losing it.
    /// - Returns: A new manager over the two.
    public func makeLayeredCache(over front: any ImageCache, promotingInto memoryCache: MemoryCache?, copyingHitsToDisk: Bool = false) -> CachesManager {
        promotionCache = memoryCache
        if copyingHitsToDisk { hitCopyCache = front }
        let manager = CachesManager([self, front])
        manager.queryPolicy = .serial
        manager.storePolicy = .concurrent
        manager.containsPolicy = .serial
        manager.removePolicy = .concurrent
        manager.clearPolicy = .concurrent
        return manager
    }
}
