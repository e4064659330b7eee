/// The boolean flags of a request (SDWebImage's `SDWebImageOptions`).
///
/// Everything that carries a value goes in ``WebImageContext`` instead. Flags that only make
/// sense on Apple platforms (`continueInBackground`, `forceTransition`) are left out.
public struct WebImageOptions: OptionSet, Hashable, Sendable {
    /// The options as a bit mask (each option one bit).
    public let rawValue: UInt64
    /// The options whose bits `rawValue` sets.
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    /// Try a URL again even if it failed before and is blocked.
    public static let retryFailed = WebImageOptions(rawValue: 1 << 0)
    /// Load at low priority (prefetching).
    public static let lowPriority = WebImageOptions(rawValue: 1 << 1)
    /// Deliver partial images while the data arrives (callbacks with `finished == false`).
    public static let progressiveLoad = WebImageOptions(rawValue: 1 << 2)
    /// Show the cached image, then ask the loader again honouring HTTP cache control;
    /// a "not modified" answer ends the request without a second callback.
    public static let refreshCached = WebImageOptions(rawValue: 1 << 3)
    /// Send and store cookies with the request.
    public static let handleCookies = WebImageOptions(rawValue: 1 << 4)
    /// Accept invalid TLS certificates (testing only).
    public static let allowInvalidSSLCertificates = WebImageOptions(rawValue: 1 << 5)
    /// Load at high priority (jump ahead of queued downloads).
    public static let highPriority = WebImageOptions(rawValue: 1 << 6)
    /// Show the placeholder only after the load finished (and failed).
    public static let delayPlaceholder = WebImageOptions(rawValue: 1 << 7)
    /// Apply the transformer to animated images too (skipped by default).
    public static let transformAnimatedImage = WebImageOptions(rawValue: 1 << 8)
    /// Do not set the image on the target; the completion handler does it.
    public static let avoidAutoSetImage = WebImageOptions(rawValue: 1 << 9)
    /// Decode images larger than the scale-down limit at a smaller size.
    public static let scaleDownLargeImages = WebImageOptions(rawValue: 1 << 10)
    /// On a memory hit, also read the data from disk.
    public static let queryMemoryData = WebImageOptions(rawValue: 1 << 11)
    /// With `queryMemoryData`: read a memory hit's data from disk on the calling thread, not
    /// on an executor. The completion-handler API (and so ``ImageTarget``) then delivers the
    /// hit before the call returns (see ``ImageCache/queryImageImmediately(forKey:options:context:cacheType:)``).
    public static let queryMemoryDataSync = WebImageOptions(rawValue: 1 << 12)
    /// On a memory miss, read and decode the disk entry on the calling thread, not on an
    /// executor. The completion-handler API (and so ``ImageTarget``) then delivers a disk hit
    /// before the call returns (see ``ImageCache/queryImageImmediately(forKey:options:context:cacheType:)``).
    public static let queryDiskDataSync = WebImageOptions(rawValue: 1 << 13)
    /// Never ask the loader: a cache miss ends the request.
    public static let fromCacheOnly = WebImageOptions(rawValue: 1 << 14)
    /// Never query the cache: always ask the loader.
    public static let fromLoaderOnly = WebImageOptions(rawValue: 1 << 15)
    /// Keep the data, do not decode it (the result carries data and no image).
    public static let avoidDecodeImage = WebImageOptions(rawValue: 1 << 16)
    /// Decode only the first frame of animated images.
    public static let decodeFirstFrameOnly = WebImageOptions(rawValue: 1 << 17)
    /// Decode every frame of an animated image up front instead of lazily.
    public static let preloadAllFrames = WebImageOptions(rawValue: 1 << 18)
    /// Treat a cached image of another kind (static vs animated) as a miss.
    public static let matchAnimatedImageClass = WebImageOptions(rawValue: 1 << 19)
    /// Call the completion only after the cache store has finished.
    public static let waitStoreCache = WebImageOptions(rawValue: 1 << 20)
    /// Apply the transformer to vector images too (skipped by default).
    public static let transformVectorImage = WebImageOptions(rawValue: 1 << 21)
    /// Do not cancel the target's previous load when a new one starts.
    public static let avoidAutoCancelImage = WebImageOptions(rawValue: 1 << 22)
}
