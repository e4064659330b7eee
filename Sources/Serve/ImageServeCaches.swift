import Foundation
public import RedisCache
public import SwiftWebImage

/// The caches of an ``ImageServe``: one for originals (what the image manager fetched), one for
/// results (encoded answers), each a memory + disk ``/WebImageCaches/WebImageCache`` with, when
/// the configuration names a Redis server, a ``/RedisCache/RedisImageCache`` shared by the fleet
/// behind it.
///
/// - Local tiers: `originals` and `results` namespaces under the
///   ``ImageServeConfiguration/CacheLocation/directory(_:)`` (default the user's cache
///   directory, `swiftwebimage/serve-originals` and `serve-results`). Decoded originals get half
///   of ``ImageServeConfiguration/memoryCacheBytes`` (the image server keeps reduced copies of
///   them and encoded results in memory of its own, a quarter each); each gets half of
///   ``ImageServeConfiguration/diskCacheBytes``.
/// - Redis: namespaces `<prefix>-originals` and `<prefix>-results` on one client.
///   Decision: a query asks memory, then the local disk, then Redis (local tiers are cheaper
///   than a round trip; Redis is what the servers of a fleet share). A Redis hit is put in
///   the originals' memory tier, and its data (originals and results) written to the local
///   disk tier, so that a server restarted after Redis lost its data does not fetch again what
///   it had; stores go to every tier at once. The plug-in's failure policy makes a Redis
///   outage cost only hit rate: a failed query is a miss, a failed store is dropped (and logged on
///   standard error), and no call waits longer than the client's command timeout (1 s).
/// - ``ImageServeConfiguration/CacheLocation/disabled``: no local tier; with Redis, Redis alone;
///   without, no cache at all (every request fetches its source).
public struct ImageServeCaches: Sendable {
    /// Where the image manager keeps originals.
    public let originals: any ImageCache
    /// Where the image server keeps encoded results, or `nil` (no cache at all).
    public let results: (any ImageCache)?
    /// One line for a start-up message: where the caches are.
    public let summary: String
    /// The Redis client both caches share, or `nil` without Redis.
    public let redisClient: RedisClient?

    /// The caches `options` ask for, decoding and encoding with its coder.
    /// - Parameter options: The configuration of the server the caches are for.
    public init(_ options: ImageServeConfiguration) {
        self.init(options, coder: options.coder)
    }

    /// The caches `options` ask for, decoding and encoding with `coder` (``ImageServe`` passes
    /// the configuration's coder under its memory budget).
    /// - Parameters:
    ///   - options: The configuration of the server the caches are for.
    ///   - coder: Decodes what the caches read, encodes what they store.
    public init(_ options: ImageServeConfiguration, coder: any ImageCoder) {
        let originalsMemory = options.effectiveMemoryCacheBytes / 2
        let originalsDisk = options.diskCacheBytes / 2
        let resultsDisk = options.diskCacheBytes - originalsDisk
        var local: (originals: WebImageCache, results: WebImageCache)?
        var summary: String
        switch options.cacheLocation {
        case .disabled:
            summary = "no local cache"
        case .standard, .directory:
            let directory: URL?
            let names: (String, String)
            if case .directory(let url) = options.cacheLocation {
                directory = url
                names = ("originals", "results")
            } else {
                directory = nil
                names = ("serve-originals", "serve-results")
            }
            func make(_ namespace: String, memory: Int, disk: Int) -> WebImageCache {
                let config = WebImageCache.Config(shouldCacheImagesInMemory: memory > 0, memoryCostLimit: max(memory, 1), maxDiskSize: disk)
                return WebImageCache(namespace: namespace, directory: directory, config: config, coder: coder)
            }
            let originals = make(names.0, memory: originalsMemory, disk: originalsDisk)
            // Results keep no memory tier here: the image server has its own, of encoded bytes
            // (ImageServerConfiguration.resultMemoryCapacity, the other quarter).
            let results = make(names.1, memory: 0, disk: resultsDisk)
            local = (originals, results)
            let parent = originals.diskCache?.directory.deletingLastPathComponent().path ?? "?"
            summary = "memory \(ImageServeCaches.mebibytes(options.effectiveMemoryCacheBytes)) + disk \(ImageServeCaches.mebibytes(options.diskCacheBytes)) in \(parent)"
        }

        guard let redisConfiguration = options.redis else {
            originals = local?.originals ?? CachesManager()
            results = local?.results
            redisClient = nil
            self.summary = summary
            return
        }
        // A source may be as large as --max-source-bytes: let Redis hold it (and read it back).
        let valueLimit = max(16 << 20, options.server.maximumSourceBytes + (1 << 20))
        var clientConfiguration = redisConfiguration
        clientConfiguration.maxReplySize = max(clientConfiguration.maxReplySize, valueLimit + (1 << 20))
        let client = RedisClient(configuration: clientConfiguration)
        redisClient = client
        func make(_ suffix: String, in front: WebImageCache?, promoting: Bool) -> any ImageCache {
            let redisCache = RedisImageCache(
                client: client,
                config: RedisImageCache.Config(namespace: "\(options.redisNamespace)-\(suffix)", maxValueSize: valueLimit),
                coder: options.coder
            )
            guard let front else { return redisCache }
            return redisCache.makeLayeredCache(over: front, promotingInto: promoting ? front.memoryCache : nil, copyingHitsToDisk: true)
        }
        originals = make("originals", in: local?.originals, promoting: true)
        results = make("results", in: local?.results, promoting: false)
        summary += ", Redis at \(redisConfiguration.endpoint) (namespaces \(options.redisNamespace)-originals, -results)"
        self.summary = summary
    }

    /// `bytes` in MiB for the summary (`512 MiB`).
    static func mebibytes(_ bytes: Int) -> String {
        bytes % (1 << 20) == 0 ? "\(bytes >> 20) MiB" : "\(bytes) bytes"
    }
}
