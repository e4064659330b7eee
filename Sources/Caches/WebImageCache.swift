public import Foundation
public import WebImageCore

/// The default image cache: a ``MemoryCache`` of decoded images in front of a ``DiskCache`` of
/// encoded data (SDWebImage's `SDImageCache`). Named `WebImageCache` because `ImageCache` is
/// the protocol it conforms to.
///
/// - **Disk tier:** a ``DiskCache`` in `directory/<namespace>` with
///   ``init(namespace:directory:config:coder:)``, or any ``DiskStorage`` (a plug-in's database,
///   say) with ``init(namespace:diskStorage:config:coder:)``. Every disk access goes through
///   ``diskStorage``; the disk fields of ``Config`` apply only when it is a ``DiskCache``.
///
/// - **Query** (``queryImage(forKey:options:context:cacheType:)``): memory first; a memory hit
///   returns at once unless `queryMemoryData` asks for the data from disk too. A disk hit is
///   decoded by the decode stage (``/WebImageCore/ImageDecodeRequest``: the request's coder, else ``coder``;
///   scale factor, thumbnail size, first frame only, ... from the options, context and key),
///   then promoted to memory, unless the decode made it smaller than the data (a thumbnail
///   size or scale-down budget in the query): the key's memory entry stays full-size. Disk reads run on ``/WebImageCore/BlockingWorkExecutor/fileIO`` and decoding on
///   ``/WebImageCore/BlockingWorkExecutor/processing``, or both on the calling task with `queryDiskDataSync`
///   (memory miss) or `queryMemoryDataSync` (memory hit). ``imageFromCache(forKey:options:context:)`` and its
///   siblings are the synchronous variants.
/// - **Store**: the image goes to memory (cost ``/WebImageCore/WebImage/memoryCost``), the data to disk with
///   the image's ``/WebImageCore/WebImage/extendedData``. Without data the image is encoded through the
///   same coder: a still image as PNG if it has alpha, else JPEG; an animated image keeps its
///   animation (its original data when its frames are lazy, else its own format or GIF when
///   the coder can encode it). When no coder can encode it, the image stays in memory only and
///   the store throws an error that says so.
/// - **Corrupt data**: a disk entry the coder calls bad (truncated, corrupt), or that no
///   registered format recognises, is a miss and is removed. Data of a known format that no
///   coder of this cache can decode is a miss but stays (a coder may be registered later).
/// - **Failures**: a read-only or full disk makes `store` throw
///   ``/WebImageCore/WebImageError/Code/cacheFailure`` after the memory tier has stored the image, so the
///   memory cache keeps working.
///
/// Thread-safety: every member may be called from any thread, concurrently. No lock is held
/// while a coder runs.
public final class WebImageCache: Sendable {
    /// The settings of an image cache (SDWebImage's `SDImageCacheConfig`). Change them at any
    /// time through ``WebImageCache/config``.
    public struct Config: Sendable {
        /// Whether decoded images are kept in memory (default `true`). When `false`, stores and
        /// disk hits skip the memory tier.
        public var shouldCacheImagesInMemory: Bool
        /// The memory tier's cost limit in bytes (default ``MemoryCache/defaultCostLimit``).
        public var memoryCostLimit: Int
        /// The memory tier's count limit (default ``MemoryCache/defaultCountLimit``: none).
        public var memoryCountLimit: Int
        // The disk fields below apply only when the disk tier is a DiskCache; a custom
        // DiskStorage has its own settings.

        /// How long a disk entry lives, in seconds (default 1 week; negative: forever).
        public var maxDiskAge: TimeInterval
        /// The disk tier's size limit in bytes (default ``DiskCache/defaultSizeLimit``, 1 GiB).
        public var maxDiskSize: Int
        /// Which date counts for disk expiry (default ``DiskCache/ExpireType/accessDate``).
        public var diskExpireType: DiskCache.ExpireType
        /// Where extended data is kept on disk (default ``DiskCache/ExtendedDataStorage/automatic``).
        public var extendedDataStorage: DiskCache.ExtendedDataStorage
        /// Pre-populated directories searched after a disk miss (default none).
        public var additionalReadOnlyDirectories: [URL]
        /// Whether disk writes are flushed to the device (default `false`).
        public var synchronizesWrites: Bool

        /// Settings as given; see each property for its default.
        /// - Parameters: See the properties.
        public init(
            shouldCacheImagesInMemory: Bool = true,
            memoryCostLimit: Int = MemoryCache.defaultCostLimit,
            memoryCountLimit: Int = MemoryCache.defaultCountLimit,
            maxDiskAge: TimeInterval = DiskCache.defaultMaxAge,
            maxDiskSize: Int = DiskCache.defaultSizeLimit,
            diskExpireType: DiskCache.ExpireType = .accessDate,
            extendedDataStorage: DiskCache.ExtendedDataStorage = .automatic,
            additionalReadOnlyDirectories: [URL] = [],
            synchronizesWrites: Bool = false
        ) {
            self.shouldCacheImagesInMemory = shouldCacheImagesInMemory
            self.memoryCostLimit = memoryCostLimit
            self.memoryCountLimit = memoryCountLimit
            self.maxDiskAge = maxDiskAge
            self.maxDiskSize = maxDiskSize
            self.diskExpireType = diskExpireType
            self.extendedDataStorage = extendedDataStorage
            self.additionalReadOnlyDirectories = additionalReadOnlyDirectories
            self.synchronizesWrites = synchronizesWrites
        }

        var diskConfig: DiskCache.Config {
            DiskCache.Config(
                sizeLimit: maxDiskSize,
                maxAge: maxDiskAge,
                expireType: diskExpireType,
                extendedDataStorage: extendedDataStorage,
                additionalReadOnlyDirectories: additionalReadOnlyDirectories,
                synchronizesWrites: synchronizesWrites
            )
        }
    }

    private struct State {
        var config: Config
        var coder: any ImageCoder
    }

    /// The namespace: the last component of the disk directory for a ``DiskCache`` tier; a
    /// name only for a custom ``DiskStorage``.
    public let namespace: String
    /// The memory tier.
    public let memoryCache: MemoryCache
    /// The disk tier: every disk read, write and sweep of this cache goes through it.
    public let diskStorage: any DiskStorage
    /// Where the asynchronous API runs blocking disk work: ``BlockingWorkExecutor/fileIO``.
    let ioExecutor: BlockingWorkExecutor
    /// Where the asynchronous API decodes disk hits: ``BlockingWorkExecutor/processing``.
    let processingExecutor: BlockingWorkExecutor
    private let state: Locked<State>

    /// The disk tier when it is the built-in ``DiskCache``; `nil` for a custom ``DiskStorage``.
    ///
    /// Use it for what only a ``DiskCache`` has (its directory, its file per key, its own
    /// config); every disk read and write of the cache goes through ``diskStorage``.
    public var diskCache: DiskCache? {
        diskStorage as? DiskCache
    }

    /// A cache whose disk tier is `directory/<namespace>`.
    /// - Parameters:
    ///   - namespace: Names the disk directory (made safe by
    ///     ``DiskCache/directoryName(forNamespace:)``). Default `"default"`.
    ///   - directory: The parent of the namespace directory; default
    ///     `$XDG_CACHE_HOME/swiftwebimage` (or `~/.cache/swiftwebimage`).
    ///   - config: The settings.
    ///   - coder: Decodes disk hits and encodes images stored without data, unless a request's
    ///     ``/WebImageCore/WebImageContext/imageCoder`` overrides it. Default: an empty ``/WebImageCore/CodersManager``,
    ///     which decodes nothing: pass `CodersManager.shared` (module `SwiftWebImage`) for the
    ///     built-in coders, as the shared cache `WebImageCache.shared` of that module does.
    public convenience init(namespace: String = "default", directory: URL? = nil, config: Config = Config(), coder: any ImageCoder = CodersManager()) {
        let diskDirectory = directory.map { $0.appendingPathComponent(DiskCache.directoryName(forNamespace: namespace), isDirectory: true) }
            ?? DiskCache.defaultDirectory(namespace: namespace)
        self.init(namespace: namespace, diskStorage: DiskCache(directory: diskDirectory, config: config.diskConfig), config: config, coder: coder)
    }

    /// A cache whose disk tier is `diskStorage`: a plug-in's storage, or a ``DiskCache`` made
    /// by hand. Creating the cache does no I/O.
    ///
    /// ```swift
    /// let cache = WebImageCache(diskStorage: SQLiteDiskCache(directory: url), coder: CodersManager.shared)
    /// ```
    /// - Parameters:
    ///   - namespace: A name for the cache (default `"custom"`); it does not place anything.
    ///   - diskStorage: The disk tier. Its own settings (limits, expiry) stand, unless it is a
    ///     ``DiskCache``: then the disk fields of `config` replace its settings now and whenever
    ///     ``config`` is set, as with ``init(namespace:directory:config:coder:)``.
    ///   - config: The settings.
    ///   - coder: Decodes disk hits and encodes images stored without data, unless a request's
    ///     ``/WebImageCore/WebImageContext/imageCoder`` overrides it. Default: an empty ``/WebImageCore/CodersManager``.
    public convenience init(namespace: String = "custom", diskStorage: any DiskStorage, config: Config = Config(), coder: any ImageCoder = CodersManager()) {
        self.init(namespace: namespace, diskStorage: diskStorage, config: config, coder: coder, ioExecutor: .fileIO, processingExecutor: .processing)
    }

    /// A cache over `diskStorage` whose asynchronous API reads on `ioExecutor` and decodes on
    /// `processingExecutor` (tests give it executors of their own, to count their threads).
    init(namespace: String, diskStorage: any DiskStorage, config: Config, coder: any ImageCoder, ioExecutor: BlockingWorkExecutor, processingExecutor: BlockingWorkExecutor) {
        self.namespace = namespace
        self.memoryCache = MemoryCache(costLimit: config.memoryCostLimit, countLimit: config.memoryCountLimit)
        self.diskStorage = diskStorage
        self.ioExecutor = ioExecutor
        self.processingExecutor = processingExecutor
        self.state = Locked(State(config: config, coder: coder))
        (diskStorage as? DiskCache)?.config = config.diskConfig
    }

    /// The settings. Setting them updates the memory tier (a lower limit evicts at once) and,
    /// when the disk tier is a ``DiskCache``, its settings; a custom ``DiskStorage`` keeps its own.
    public var config: Config {
        get { state.withLock { $0.config } }
        set {
            state.withLock { $0.config = newValue }
            memoryCache.costLimit = newValue.memoryCostLimit
            memoryCache.countLimit = newValue.memoryCountLimit
            (diskStorage as? DiskCache)?.config = newValue.diskConfig
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

    /// The image on disk for `key`, decoded now on the calling thread and promoted to memory
    /// as a disk hit of a query is (SDWebImage's `imageFromDiskCacheForKey:`).
    ///
    /// Always the disk tier's own image: the data is decoded even when memory holds an image
    /// under `key` (which may be another one, stored in memory alone).
    /// - Returns: The image, or `nil` on a miss or when the data cannot be decoded (bad data
    ///   is removed, as by a query).
    public func imageFromDiskCache(forKey key: String, options: WebImageOptions = [], context: WebImageContext = WebImageContext()) -> WebImage? {
        guard let entry = diskStorage.entry(forKey: key) else { return nil }
        let options = options.subtracting(.avoidDecodeImage)
        let stage = decodeRequest(forKey: key, options: options, context: context)
        let outcome = stage.decodeCachedData(entry.data, extendedData: entry.extendedData)
        if case .remove = outcome { diskStorage.removeData(forKey: key) }
        return diskResult(outcome, stage: stage, entry: entry, forKey: key, context: context)?.image
    }

    /// The image for `key` from memory, else from disk (decoded on the calling thread).
    public func imageFromCache(forKey key: String, options: WebImageOptions = [], context: WebImageContext = WebImageContext()) -> WebImage? {
        if let image = shapedMemoryImage(forKey: key, options: options) { return image }
        return imageFromDiskCache(forKey: key, options: options, context: context)
    }

    /// The data on disk for `key` (no decoding), from ``diskStorage`` on the calling thread.
    public func diskImageData(forKey key: String) -> Data? {
        diskStorage.data(forKey: key)
    }

    /// Whether the disk holds data for `key` (``diskStorage``, on the calling thread).
    public func diskImageDataExists(forKey key: String) -> Bool {
        diskStorage.containsData(forKey: key)
    }

    /// The file `key` is (or would be) stored at.
    /// - Returns: `nil` when the disk tier is not a ``DiskCache`` (a custom ``DiskStorage``
    ///   has no file per key to name).
    public func cachePath(forKey key: String) -> URL? {
        (diskStorage as? DiskCache)?.fileURL(forKey: key)
    }

    /// The bytes on disk, as ``diskStorage`` counts them (for a ``DiskCache``: data plus sidecars).
    public func totalDiskSize() -> Int {
        diskStorage.totalSize()
    }

    /// The number of entries on disk.
    public func totalDiskCount() -> Int {
        diskStorage.totalCount()
    }

    /// Removes expired disk entries as of now and trims the disk as the storage's policy says
    /// (a ``DiskCache``: to half its limit when over it; see
    /// ``DiskCache/removeExpiredData(referenceDate:)``). Runs on ``/WebImageCore/BlockingWorkExecutor/fileIO``.
    /// - Returns: The number of entries removed.
    @discardableResult
    public func removeExpiredData() async -> Int {
        await ioExecutor.runUncancellable { self.diskStorage.removeExpiredData(referenceDate: Date()) }
    }

    // MARK: Internals shared by the sync and async APIs

    /// The decode stage of one query of `key`: the request's coder, else ``coder``.
    func decodeRequest(forKey key: String, options: WebImageOptions, context: WebImageContext) -> ImageDecodeRequest {
        ImageDecodeRequest(key: key, options: options, context: context, defaultCoder: coder)
    }

    /// The memory hit for `key`, shaped by the options (see ``ImageDecodeRequest/shaped(_:options:)``).
    func shapedMemoryImage(forKey key: String, options: WebImageOptions) -> WebImage? {
        guard let image = memoryCache.image(forKey: key) else { return nil }
        // The common case returns the image as it is: no copy through the shaping.
        if options.isDisjoint(with: [.decodeFirstFrameOnly, .matchAnimatedImageClass]) { return image }
        return ImageDecodeRequest.shaped(image, options: options)
    }

    /// Whether a disk hit may be written to memory: the config allows it and the context's
    /// ``WebImageContext/storeCacheType``, if set, includes memory (SDWebImage's rule).
    func promotesToMemory(_ context: WebImageContext) -> Bool {
        config.shouldCacheImagesInMemory && (context.storeCacheType?.includesMemory ?? true)
    }

    /// The disk part of a query, all on the calling thread (the synchronous API and the
    /// `...Sync` options).
    /// - Parameter memoryImage: A memory hit for which `queryMemoryData` wants the data.
    func diskPhase(forKey key: String, memoryImage: WebImage?, options: WebImageOptions, context: WebImageContext) -> ImageCacheResult? {
        if let memoryImage {
            return ImageCacheResult(image: memoryImage, data: diskStorage.data(forKey: key), cacheType: .memory)
        }
        guard let entry = diskStorage.entry(forKey: key) else { return nil }
        if let early = earlyDiskResult(entry, forKey: key, options: options, context: context) { return early }
        let stage = decodeRequest(forKey: key, options: options, context: context)
        let outcome = stage.decodeCachedData(entry.data, extendedData: entry.extendedData)
        if case .remove = outcome { diskStorage.removeData(forKey: key) }
        return diskResult(outcome, stage: stage, entry: entry, forKey: key, context: context)
    }

    /// The disk part of a query off the calling thread: the read on the file I/O executor, the
    /// decode on the processing executor, chained (``/WebImageCore/BlockingWorkExecutor/run(steps:)``):
    /// the calling task is resumed once, after the decode, and the thread that read the file
    /// decodes it when the processing executor has a free slot. A cancelled task gets `nil`.
    func diskPhaseInBackground(forKey key: String, memoryImage: WebImage?, options: WebImageOptions, context: WebImageContext) async -> ImageCacheResult? {
        let storage = diskStorage
        if let memoryImage {
            let data = try? await ioExecutor.run { storage.data(forKey: key) }
            return ImageCacheResult(image: memoryImage, data: data, cacheType: .memory)
        }
        let processing = processingExecutor
        let outcome = try? await ioExecutor.run(steps: { () -> BlockingWorkStep<DiskQueryOutcome> in
            guard let entry = storage.entry(forKey: key) else { return .done(.result(nil)) }
            if let early = self.earlyDiskResult(entry, forKey: key, options: options, context: context) { return .done(.result(early)) }
            let stage = self.decodeRequest(forKey: key, options: options, context: context)
            return .next(on: processing) {
                .done(.decoded(stage.decodeCachedData(entry.data, extendedData: entry.extendedData), stage: stage, entry: entry))
            }
        })
        switch outcome {
        case nil:
            return nil
        case .result(let result)?:
            return result
        case .decoded(let decoded, let stage, let entry)?:
            if case .remove = decoded { await ioExecutor.runUncancellable { storage.removeData(forKey: key) } }
            return diskResult(decoded, stage: stage, entry: entry, forKey: key, context: context)
        }
    }

    /// A disk hit that needs no decode: data only (`avoidDecodeImage`), or an image another
    /// query decoded and promoted meanwhile (SDWebImage's special case).
    private func earlyDiskResult(_ entry: DiskStorageEntry, forKey key: String, options: WebImageOptions, context: WebImageContext) -> ImageCacheResult? {
        if options.contains(.avoidDecodeImage) {
            return ImageCacheResult(image: nil, data: entry.data, cacheType: .disk)
        }
        if promotesToMemory(context), let image = shapedMemoryImage(forKey: key, options: options) {
            return ImageCacheResult(image: image, data: entry.data, cacheType: .disk)
        }
        return nil
    }

    /// The result of a decoded disk entry, promoted to memory when allowed: never an image the
    /// decode made smaller than the entry (a thumbnail size or scale-down budget in the query,
    /// or the first frame of an animation; see ``ImageDecodeRequest/mayPromote(_:)``) under the
    /// queried key, which would answer later plain queries. A thumbnail goes into memory under
    /// the thumbnail's own key instead (``ImageDecodeRequest/thumbnailMemoryKey(for:queriedKey:)``,
    /// SDWebImage's behaviour), never to disk.
    private func diskResult(_ outcome: CachedDataDecodeResult, stage: ImageDecodeRequest, entry: DiskStorageEntry, forKey key: String, context: WebImageContext) -> ImageCacheResult? {
        guard let image = outcome.image else { return nil }
        if promotesToMemory(context) {
            if stage.mayPromote(image) {
                memoryCache.setImage(image, forKey: key)
            } else if let thumbnailKey = stage.thumbnailMemoryKey(for: image, queriedKey: key) {
                memoryCache.setImage(image, forKey: thumbnailKey)
            }
        }
        return ImageCacheResult(image: image, data: entry.data, cacheType: .disk)
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
