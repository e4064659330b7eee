public import Foundation
public import SwiftWebImage

/// An image cache kept in SQLite: a ``MemoryCache`` of decoded images in front of a
/// ``SQLiteDiskCache`` of encoded data (SDWebImage's YYCache and PINCache plug-ins). A complete
/// ``ImageCache``: swap it in for the built-in `WebImageCache` with one line at launch,
///
/// ```swift
/// CachesManager.shared.add(SQLiteImageCache(namespace: "images"))
/// ```
///
/// or give it to one manager (`ImageManager(cache: cache, loader: ...)`) or one request
/// (``WebImageContext/imageCache``).
///
/// - **Query**: memory first; a memory hit returns at once unless `queryMemoryData` asks for
///   the data too. A disk hit is decoded through the request's coder
///   (``WebImageContext/imageCoder``) or else ``coder``, with ``ImageDecodeOptions`` built from
///   the options, the context and the key, gets the entry's extended data as its
///   ``WebImage/extendedData``, and is promoted to memory (unless the config or the context's
///   ``WebImageContext/storeCacheType`` leaves memory out). With `avoidDecodeImage` a disk hit
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
/// Blocking work (SQLite, value files, decoding, encoding) runs on the cache's own queue, or on
/// the calling task with `queryDiskDataSync` (memory miss) and `queryMemoryDataSync` (memory
/// hit), as SDWebImage does. See ``SQLiteDiskCache`` for the database: one serialized
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
        /// The memory tier's cost limit in bytes (default ``MemoryCache/defaultCostLimit``).
        public var memoryCostLimit: Int
        /// The memory tier's count limit (default ``MemoryCache/defaultCountLimit``: none).
        public var memoryCountLimit: Int
        /// The database's settings: size and count limits, maximum age, inline threshold,
        /// synchronous writes (see ``SQLiteDiskCache/Config``).
        public var disk: SQLiteDiskCache.Config

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

    private struct State {
        var config: Config
        var coder: any ImageCoder
    }

    /// The memory tier.
    public let memoryCache: MemoryCache
    /// The SQLite tier.
    public let diskCache: SQLiteDiskCache
    let queue = BlockingQueue(label: "SwiftWebImage.SQLiteImageCache.io")
    private let state: Locked<State>

    /// A cache whose database lives in `directory` (created on first use; creating the cache
    /// does no I/O).
    /// - Parameters:
    ///   - directory: The directory of the database and its value files.
    ///   - config: The settings.
    ///   - coder: Decodes disk hits and encodes images stored without data, unless a request's
    ///     ``WebImageContext/imageCoder`` overrides it. Default: the shared ``CodersManager``
    ///     with the built-in coders and every coder registered with it.
    ///   - clock: The time source of the database (default: the system clock); see
    ///     ``SQLiteDiskCache/init(directory:config:clock:)``.
    public init(
        directory: URL,
        config: Config = Config(),
        coder: any ImageCoder = CodersManager.shared,
        clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.memoryCache = MemoryCache(costLimit: config.memoryCostLimit, countLimit: config.memoryCountLimit)
        self.diskCache = SQLiteDiskCache(directory: directory, config: config.disk, clock: clock)
        self.state = Locked(State(config: config, coder: coder))
    }

    /// A cache in ``defaultDirectory(namespace:environment:)`` for `namespace`.
    /// - Parameters:
    ///   - namespace: Names the directory (made safe by ``DiskCache/directoryName(forNamespace:)``).
    ///   - config: The settings.
    ///   - coder: As in ``init(directory:config:coder:clock:)``.
    public convenience init(namespace: String = "default", config: Config = Config(), coder: any ImageCoder = CodersManager.shared) {
        self.init(directory: Self.defaultDirectory(namespace: namespace), config: config, coder: coder)
    }

    /// The default directory of a namespace: `$XDG_CACHE_HOME/swiftwebimage-sqlite/<namespace>`
    /// (or `~/.cache/swiftwebimage-sqlite/<namespace>`), beside, never inside, the directories
    /// of the built-in disk caches. Pure: it creates nothing.
    /// - Parameters:
    ///   - namespace: The namespace, made safe by ``DiskCache/directoryName(forNamespace:)``.
    ///   - environment: The environment to read (default: the process's), for tests.
    public static func defaultDirectory(namespace: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        let builtIn = DiskCache.defaultDirectory(namespace: namespace, environment: environment)
        return builtIn.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("swiftwebimage-sqlite", isDirectory: true)
            .appendingPathComponent(builtIn.lastPathComponent, isDirectory: true)
    }

    /// The settings. Setting them updates both tiers (a lower memory limit evicts at once; a
    /// lower disk limit is enforced at the next write).
    public var config: Config {
        get { state.withLock { $0.config } }
        set {
            state.withLock { $0.config = newValue }
            memoryCache.costLimit = newValue.memoryCostLimit
            memoryCache.countLimit = newValue.memoryCountLimit
            diskCache.config = newValue.disk
        }
    }

    /// The coder for disk hits and for encoding, when the request's context names none.
    public var coder: any ImageCoder {
        get { state.withLock { $0.coder } }
        set { state.withLock { $0.coder = newValue } }
    }

    // MARK: Synchronous API

    /// The image in memory for `key` (no disk access).
    public func imageFromMemoryCache(forKey key: String) -> WebImage? {
        memoryCache.image(forKey: key)
    }

    /// The image in SQLite for `key`, decoded now on the calling thread and promoted to memory.
    /// - Returns: The image, or `nil` on a miss or when the data cannot be decoded.
    public func imageFromDiskCache(forKey key: String, options: WebImageOptions = [], context: WebImageContext = WebImageContext()) -> WebImage? {
        diskPhase(forKey: key, memoryImage: nil, options: options.subtracting(.avoidDecodeImage), context: context)?.image
    }

    /// The data in SQLite for `key` (no decoding).
    public func diskImageData(forKey key: String) -> Data? {
        diskCache.data(forKey: key)
    }

    /// Removes expired entries and orphan value files; see
    /// ``SQLiteDiskCache/removeExpiredData(referenceDate:)``. Runs on the cache's queue.
    /// - Returns: The number of entries removed.
    @discardableResult
    public func removeExpiredData() async -> Int {
        await queue.run { self.diskCache.removeExpiredData() }
    }

    // MARK: Internals shared by the sync and async APIs

    /// The memory hit for `key`, shaped by the options.
    func shapedMemoryImage(forKey key: String, options: WebImageOptions) -> WebImage? {
        guard config.shouldCacheImagesInMemory else { return nil }
        return memoryCache.image(forKey: key).flatMap { Self.shaped($0, options: options) }
    }

    /// `image` as the options want it, or `nil` when `matchAnimatedImageClass` rejects it.
    /// Decision (as `WebImageCache`): the "class" of an animated image is how its frames are
    /// held, lazily (the default decode) or all decoded (`preloadAllFrames`); a still image
    /// always matches.
    static func shaped(_ image: WebImage, options: WebImageOptions) -> WebImage? {
        var image = image
        if options.contains(.decodeFirstFrameOnly), image.isAnimated {
            image = image.firstFrameOnly
        }
        if options.contains(.matchAnimatedImageClass), image.isAnimated,
           image.isLazilyAnimated == options.contains(.preloadAllFrames) {
            return nil
        }
        return image
    }

    /// Whether a disk hit may be written to memory: the config allows it and the context's
    /// ``WebImageContext/storeCacheType``, if set, includes memory (SDWebImage's rule).
    func promotesToMemory(_ context: WebImageContext) -> Bool {
        config.shouldCacheImagesInMemory && (context.storeCacheType?.includesMemory ?? true)
    }

    /// The disk part of a query: blocking I/O and decoding on the calling thread.
    /// - Parameter memoryImage: A memory hit for which `queryMemoryData` wants the data.
    func diskPhase(forKey key: String, memoryImage: WebImage?, options: WebImageOptions, context: WebImageContext) -> ImageCacheResult? {
        if let memoryImage {
            return ImageCacheResult(image: memoryImage, data: diskCache.data(forKey: key), cacheType: .memory)
        }
        guard let entry = diskCache.entry(forKey: key) else { return nil }
        if options.contains(.avoidDecodeImage) {
            return ImageCacheResult(image: nil, data: entry.data, cacheType: .disk)
        }
        let promotes = promotesToMemory(context)
        // Another query may have decoded the same entry meanwhile.
        if promotes, let image = shapedMemoryImage(forKey: key, options: options) {
            return ImageCacheResult(image: image, data: entry.data, cacheType: .disk)
        }
        guard let image = decode(entry, forKey: key, options: options, context: context) else { return nil }
        if promotes { memoryCache.setImage(image, forKey: key) }
        return ImageCacheResult(image: image, data: entry.data, cacheType: .disk)
    }

    /// Decodes a disk entry, removing it when its data is bad.
    func decode(_ entry: DiskCache.Entry, forKey key: String, options: WebImageOptions, context: WebImageContext) -> WebImage? {
        let coder = context.imageCoder ?? self.coder
        guard coder.canDecode(entry.data) else {
            // Data no registered format recognises is not an image: remove it. Data of a known
            // format may wait for a coder.
            if ImageFormat.detect(entry.data) == .undefined { diskCache.removeData(forKey: key) }
            return nil
        }
        do {
            var image = try coder.decode(entry.data, options: ImageDecodeOptions(options: options, context: context, cacheKey: key))
            if let extended = entry.extendedData { image.extendedData = extended }
            return Self.shaped(image, options: options)
        } catch {
            // Too large for these options, or cancelled: the entry is fine. Anything else: bad data.
            let keep = (error as? WebImageError)?.code == .imageTooLarge || WebImageError.isCancellation(error)
            if !keep { diskCache.removeData(forKey: key) }
            return nil
        }
    }

    /// The data to write for an image stored without data.
    /// - Throws: ``WebImageError/Code/unsupportedFormat`` when the coder cannot encode the
    ///   format chosen; the coder's error when encoding fails.
    func encodedData(for image: WebImage, context: WebImageContext) throws -> Data {
        if case .animated(let animated) = image.storage {
            return animated.provider.animatedImageData
        }
        let coder = context.imageCoder ?? self.coder
        let format = Self.encodingFormat(for: image, coder: coder)
        guard coder.canEncode(to: format) else {
            throw WebImageError(.unsupportedFormat, "no coder can encode a \(image.pixelSize) image \(image.hasAlpha ? "with" : "without") alpha as \(format)")
        }
        var encodeOptions = context.imageEncodeOptions ?? ImageEncodeOptions()
        encodeOptions.context = context
        return try coder.encode(image, as: format, options: encodeOptions)
    }

    /// The format an image without data is encoded as: PNG if it has alpha, else JPEG
    /// (SDWebImage's rule); an animated image keeps its own format (or GIF) when the coder can
    /// encode it, so that it stays animated.
    static func encodingFormat(for image: WebImage, coder: any ImageCoder) -> ImageFormat {
        if image.isAnimated {
            if image.format != .undefined, coder.canEncode(to: image.format) { return image.format }
            if coder.canEncode(to: .gif) { return .gif }
        }
        return image.hasAlpha ? .png : .jpeg
    }
}
