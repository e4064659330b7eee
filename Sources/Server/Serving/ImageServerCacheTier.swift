/// Which cache answered an image request (the access log's last field and the `tier` label of
/// the `webimage_serve_cache_hits_total` metric).
public enum ImageServerCacheTier: String, Sendable, CaseIterable {
    /// No cache: a fresh result made from a freshly fetched source, or a response that is no image.
    case none
    /// The server's own memory tier of encoded results (``ImageServerConfiguration/resultMemoryCapacity``).
    case resultMemory = "result-memory"
    /// The result cache's memory tier (a cache of several tiers that says `.memory`).
    case resultCacheMemory = "result-cache-memory"
    /// The result cache's disk tier.
    case resultDisk = "result-disk"
    /// Another tier of the result cache (Redis, SQLite, ... when it reports neither memory nor disk).
    case resultOther = "result-other"
    /// A fresh result made from an original found in the manager's memory cache.
    case originalMemory = "original-memory"
    /// A fresh result made from an original found in the manager's disk cache.
    case originalDisk = "original-disk"
}
