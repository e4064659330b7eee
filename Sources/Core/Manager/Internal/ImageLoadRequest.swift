import Foundation

/// One request after validation, the options processor and key computation: everything the
/// pipeline needs, with every part resolved (the context's override, else the manager's).
struct ImageLoadRequest: Sendable {
    let url: URL
    let options: WebImageOptions
    /// The request's context, with ``WebImageContext/imageCacheKey`` set to ``key`` (and, for
    /// an observed load, ``WebImageContext/imageEventSink`` set to the work's sink).
    var context: WebImageContext
    let cache: any ImageCache
    let originalCache: any ImageCache
    let loader: any ImageLoader
    let transformer: (any ImageTransformer)?
    let serializer: (any CacheSerializer)?
    let key: String
    let originalKey: String
    let queryCacheType: ImageCacheType
    let storeCacheType: ImageCacheType
    let originalQueryCacheType: ImageCacheType
    let originalStoreCacheType: ImageCacheType

    /// Whether the request asks for a variant of the full-size image (a thumbnail, a scale-down
    /// or a transform): its key is not the original key.
    var isVariant: Bool { key != originalKey }
}

/// What identifies the work of a request: requests with equal work keys share one load.
struct LoadWorkKey: Hashable, Sendable {
    let cacheKey: String
    /// The option flags that change the work (not the scheduling ones).
    let options: UInt64
    /// The context's keys that change the load or the decode; `nil` when not comparable.
    let context: WebImageContextIdentity?
    /// Set for a request that must not share its work with any other.
    let unique: UInt64?
}
