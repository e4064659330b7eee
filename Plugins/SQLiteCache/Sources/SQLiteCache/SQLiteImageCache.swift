public import Foundation
public import SwiftWebImage

/// An image cache kept in SQLite: a ``/WebImageCaches/MemoryCache`` of decoded images in front of a
/// ``SQLiteDiskCache`` of encoded data (SDWebImage's YYCache and PINCache plug-ins). A complete
/// ``/WebImageCore/ImageCache``: swap it in for the built-in `WebImageCache` with one line at launch,
///
/// ```swift
/// CachesManager.shared.add(SQLiteImageCache(namespace: "images"))
/// ```
///
/// or give it to one manager (`ImageManager(cache: cache, loader: ...)`) or one request
/// (``/WebImageCore/WebImageContext/imageCache``).
///
/// - **Query**: memory first; a memory hit returns at once unless `queryMemoryData` asks for
///   the data too. A disk hit is decoded through the request's coder
///   (``/WebImageCore/WebImageContext/imageCoder``) or else ``coder``, with ``/WebImageCore/ImageDecodeOptions`` built from
///   the options, the context and the key, gets the entry's extended data as its
///   ``/WebImageCore/WebImage/extendedData``, and is promoted to memory (unless the config or the context's
///   ``/WebImageCore/WebImageContext/storeCacheType`` leaves memory out). With `avoidDecodeImage` a disk hit
///   carries the data only. `decodeFirstFrameOnly` makes an animated hit still;
///   `matchAnimatedImageClass` makes a hit whose frames are held the other way (lazily, or all
///   decoded with `preloadAllFrames`) a miss, as `WebImageCache` does.
/// - **Store**: the image to memory, the data (with the image's extended data) to SQLite. An
///   image stored without data is encoded through the same coder: PNG when it has alpha, else
///   JPEG; an animated image keeps its animation (its original data, or its own format, or GIF).
/// - **Bad data**: a disk entry no registered format recognises, or that its coder calls
///   corrupt, is a miss and is removed; data of a known format that no coder can decode yet is
///   a miss and stays.
///
/// Internally it is a thin wrapper: the core's `WebImageCache` over this cache's
/// ``SQLiteDiskCache`` (its ``/WebImageCaches/DiskStorage`` seam) runs every query, store, removal and decode,
/// so the two caches share one implementation of the rules above. This type adds the SQLite
/// directory, a ``Config`` whose disk part is ``SQLiteDiskCache/Config``, the shared coders as
/// the default coder, and expiry by the database's clock.
///
/// Blocking work runs on the core's bounded executors (SQLite and value files on
/// ``/WebImageCore/BlockingWorkExecutor/fileIO``, decoding and encoding on
/// ``/WebImageCore/BlockingWorkExecutor/processing``),
/// or on the calling task with `queryDiskDataSync` (memory miss) and `queryMemoryDataSync`
/// (memory hit), as SDWebImage does. See ``SQLiteDiskCache`` for the database: one serialized
/// connection, WAL, inline and file-backed values, LRU trimming, expiry, crash safety.
///
/// Thread-safety: every member may be called from any thread, concurrently. No lock is held
/// while a coder runs.
public final class SQLiteImageCache: Sendable {
    /// The settings of a SQLite image cache. Change them at any time through
    /// ``SQLiteImageCache/config``.
    public struct Config: Sendable {
        /// Whether decoded images are kept in memory (default `true`). When `false`, stores and
        /// disk hits skip the memory tier and every hit is decoded from SQLite.
        public var shouldCacheImagesInMemory: Bool
        /// The memory tier's cost limit in bytes (default ``/WebImageCaches/MemoryCache/defaultCostLimit``).
        public var memoryCostLimit: Int
        /// The memory tier's count limit (default ``/WebImageCaches/MemoryCache/defaultCountLimit``: none).
        public var memoryCountLimit: Int
        /// The database's settings: size and count limits, maximum age, inline threshold,
        /// synchronous writes (see ``SQLiteDiskCache/Config``).
        public var disk: SQLiteDiskCache.Config

        /// Settings as given; see each property for its default.
        /// - Parameters: See the properties.
        public init(
            shouldCacheImagesInMemory: Bool = true,
            memoryCostLimit: Int = MemoryCache.defaultCostLimit,
            memoryCountLimit: Int = MemoryCache.defaultCountLimit,
            disk: SQLiteDiskCache.Config = SQLiteDiskCache.Config()
        ) {
            self.shouldCacheImagesInMemory = shouldCacheImagesInMemory
            self.memoryCostLimit = memoryCostLimit
            self.memoryCountLimit = memoryCountLimit
            self.disk = disk
        }
    }

    /// The memory tier (the inner `WebImageCache`'s).
    public let memoryCache: MemoryCache
    /// The SQLite tier.
    public let diskCache: SQLiteDiskCache
    /// The cache that does the work: memory in front of ``diskCache``. It holds the memory
    /// settings and the coder; ``diskCache`` holds the disk settings.
    let core: WebImageCache

    /// A cache whose database lives in `directory` (created on first use; creating the cache
    /// does no I/O).
    /// - Parameters:
    ///   - directory: The directory of the database and its value files.
    ///   - config: The settings.
    ///   - coder: Decodes disk hits and encodes images stored without data, unless a request's
    ///     ``/WebImageCore/WebImageContext/imageCoder`` overrides it. Default: the shared ``/WebImageCore/CodersManager``
    ///     with the built-in coders and every coder registered with it.
    ///   - clock: The time source of the database (default: the system clock); see
    ///     ``SQLiteDiskCache/init(directory:config:clock:)``.
    public init(
        directory: URL,
        config: Config = Config(),
        coder: any ImageCoder = CodersManager.shared,
        clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        let diskCache = SQLiteDiskCache(directory: directory, config: config.disk, clock: clock)
        self.diskCache = diskCache
        self.core = WebImageCache(
            namespace: directory.lastPathComponent,
            diskStorage: diskCache,
            config: Self.coreConfig(config),
            coder: coder
        )
        self.memoryCache = core.memoryCache
    }

    /// A cache in ``defaultDirectory(namespace:environment:)`` for `namespace`.
    /// - Parameters:
    ///   - namespace: Names the directory (made safe by ``/WebImageCaches/DiskCache/directoryName(forNamespace:)``).
    ///   - config: The settings.
    ///   - coder: As in ``init(directory:config:coder:clock:)``.
    public convenience init(namespace: String = "default", config: Config = Config(), coder: any ImageCoder = CodersManager.shared) {
        self.init(directory: Self.defaultDirectory(namespace: namespace), config: config, coder: coder)
    }

    /// The default directory of a namespace: `$XDG_CACHE_HOME/swiftwebimage-sqlite/<namespace>`
    /// (or `~/.cache/swiftwebimage-sqlite/<namespace>`), beside, never inside, the directories
    /// of the built-in disk caches. Pure: it creates nothing.
    /// - Parameters:
    ///   - namespace: The namespace, made safe by ``/WebImageCaches/DiskCache/directoryName(forNamespace:)``.
    ///   - environment: The environment to read (default: the process's), for tests.
    public static func defaultDirectory(namespace: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        let builtIn = DiskCache.defaultDirectory(namespace: namespace, environment: environment)
        return builtIn.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("swiftwebimage-sqlite", isDirectory: true)
            .appendingPathComponent(builtIn.lastPathComponent, isDirectory: true)
    }

    /// The settings. Setting them updates both tiers (a lower memory limit evicts at once; a
    /// lower disk limit is enforced at the next write).
    ///
    /// Decision: no copy is kept here; the memory fields are the inner cache's and ``Config/disk``
    /// is ``diskCache``'s config, so a change made through ``diskCache`` shows here too.
    public var config: Config {
        get {
            let memory = core.config
            return Config(
                shouldCacheImagesInMemory: memory.shouldCacheImagesInMemory,
                memoryCostLimit: memory.memoryCostLimit,
                memoryCountLimit: memory.memoryCountLimit,
                disk: diskCache.config
            )
        }
        set {
            core.config = Self.coreConfig(newValue)
            diskCache.config = newValue.disk
        }
    }

    /// The coder for disk hits and for encoding, when the request's context names none.
    public var coder: any ImageCoder {
        get { core.coder }
        set { core.coder = newValue }
    }

    // MARK: Synchronous API

    /// The image in memory for `key` (no disk access).
    public func imageFromMemoryCache(forKey key: String) -> WebImage? {
        core.imageFromMemoryCache(forKey: key)
    }

    /// The image in SQLite for `key`, decoded now on the calling thread and promoted to memory.
    /// - Returns: The image, or `nil` on a miss or when the data cannot be decoded.
    public func imageFromDiskCache(forKey key: String, options: WebImageOptions = [], context: WebImageContext = WebImageContext()) -> WebImage? {
        core.imageFromDiskCache(forKey: key, options: options, context: context)
    }

    /// The data in SQLite for `key` (no decoding).
    public func diskImageData(forKey key: String) -> Data? {
        core.diskImageData(forKey: key)
    }

    /// Removes expired entries and orphan value files as of now by the database's clock; see
    /// ``SQLiteDiskCache/removeExpiredData(referenceDate:)``. Runs on ``/WebImageCore/BlockingWorkExecutor/fileIO``.
    /// - Returns: The number of entries removed.
    @discardableResult
    public func removeExpiredData() async -> Int {
        await BlockingWorkExecutor.fileIO.runUncancellable { self.diskCache.removeExpiredData() }
    }

    /// The inner cache's settings: the memory fields of `config`. Its disk fields stay at their
    /// defaults, which `WebImageCache` ignores for a storage that is not a `DiskCache`.
    static func coreConfig(_ config: Config) -> WebImageCache.Config {
        WebImageCache.Config(
            shouldCacheImagesInMemory: config.shouldCacheImagesInMemory,
            memoryCostLimit: config.memoryCostLimit,
            memoryCountLimit: config.memoryCountLimit
        )
    }
}
