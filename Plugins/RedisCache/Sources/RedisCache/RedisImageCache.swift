public import Foundation
public import WebImageCore
public import WebImageCaches
import Dispatch

/// A distributed ``/WebImageCore/ImageCache`` on Redis: every server of a fleet that points at
/// the same Redis finds what any of them fetched (SDWebImage's custom-cache plug-in point, for
/// servers).
///
/// ```swift
/// let redis = RedisImageCache(
///     configuration: RedisClient.Configuration(host: "10.0.0.5", password: "secret"),
///     config: RedisImageCache.Config(namespace: "avatars"),
///     coder: CodersManager.shared
/// )
/// // Recommended: an in-process memory cache in front (query memory first, store to both).
/// let manager = ImageManager(cache: redis.makeLayeredCache(), loader: LoadersManager.shared)
/// ```
///
/// - **What is stored.** One Redis string per key holding the encoded image data and its
///   metadata: format, pixel size and the image's ``/WebImageCore/WebImage/extendedData``
///   (written and read in one command, so a reader never sees half of it). The Redis key is
///   ``redisKey(forKey:)``: namespaced, so caches with different namespaces never see each
///   other's entries. Entries expire after ``Config/maxAge`` (Redis `SET ... PX`); values
///   over ``Config/maxValueSize`` are not stored.
/// - **Tier.** Redis is this cache's ``/WebImageCore/ImageCacheType/disk`` tier: queries and
///   stores whose cache type includes `.disk` use it, `.memory` alone is ignored, and a hit
///   reports `.disk`.
/// - **Query.** One GET. The data is decoded through the request's coder
///   (``/WebImageCore/WebImageContext/imageCoder``) or else ``coder``, with
///   ``/WebImageCore/ImageDecodeOptions`` built from the options, context and key; decoding runs
///   on a dispatch queue, not on the caller's task. `avoidDecodeImage` returns the data only.
///   With a ``promotionCache`` a decoded hit is also put in that memory cache (not a decode
///   smaller than the stored data).
/// - **Store.** One SET with PX. Without data, the image is encoded through the same coder
///   (PNG if it has alpha, else JPEG; an animated image keeps its animation), as
///   `WebImageCache` does.
/// - **Remove / contains.** UNLINK (DEL on servers older than Redis 4) / EXISTS.
/// - **Clear.** Removes this namespace only: SCAN with a MATCH pattern of the namespace's
///   prefix, and UNLINK of each batch. Never FLUSHDB: other namespaces and other applications'
///   keys in the same database stay.
/// - **Failure policy.** Redis down, slow or unreachable never fails an image load and never
///   holds a caller longer than the client's command timeout: a query is a miss (counted in
///   ``Statistics/failedQueries``), a store is dropped (counted in ``Statistics/droppedStores``
///   and logged through ``Config/logHandler``) and throws `cacheFailure` for the caller to
///   ignore (`CachesManager` does; `ImageManager` goes on and reports a `storeFailed` event).
///   The client reconnects with backoff when the server is back; nothing needs restarting. A value that is not an entry of this cache
///   (corrupt or truncated), or whose data the coder calls bad, is a miss and is removed.
///
/// Thread-safety: every member may be called from any thread, concurrently. No lock is held
/// while a coder, the log handler or the network runs.
public final class RedisImageCache: Sendable {
    /// The settings of a Redis image cache, fixed when it is made.
    public struct Config: Sendable {
        /// Names the cache's part of the Redis keyspace (default `"default"`). Caches with the
        /// same namespace on the same server and database share their entries: give every
        /// server of a fleet the same namespace.
        public var namespace: String
        /// How long an entry lives after it is stored, in seconds (default 1 week, as the disk
        /// cache). Negative or infinite: entries never expire (Redis may still evict them under its
        /// `maxmemory-policy`). 0: nothing is stored (every entry would be expired at once).
        /// Sub-millisecond parts are rounded up to a whole millisecond.
        public var maxAge: TimeInterval
        /// The largest value stored, in bytes: the encoded image data plus the metadata (a few
        /// dozen bytes plus the format name and extended data). Default 16 MiB. A larger value
        /// is not stored (counted in ``Statistics/skippedStores``); an entry stored earlier under
        /// the key stays.
        public var maxValueSize: Int
        /// Where the cache reports what went wrong: dropped stores, failed queries, corrupt
        /// values. Called from the task of the operation, with no lock held; keep it quick.
        /// Default ``RedisImageCache/standardErrorLog``.
        ///
        /// An entry made while serving a query or store whose context carries an
        /// ``/WebImageCore/WebImageContext/imageEventSink`` (a request of an `ImageManager` with
        /// event observers) is also reported as that request's event,
        /// `.log(level:source: "RedisImageCache", message:)`, with the same message. This
        /// handler gets every entry either way.
        public var logHandler: LogHandler

        /// Settings as given; see each property for its default.
        /// - Parameters: See the properties.
        public init(
            namespace: String = "default",
            maxAge: TimeInterval = 7 * 24 * 60 * 60,
            maxValueSize: Int = 16 << 20,
            logHandler: @escaping LogHandler = RedisImageCache.standardErrorLog
        ) {
            self.namespace = namespace
            self.maxAge = maxAge
            self.maxValueSize = maxValueSize
            self.logHandler = logHandler
        }
    }

    /// Receives the cache's log entries.
    public typealias LogHandler = @Sendable (LogEntry) -> Void

    /// One thing the cache reports.
    public struct LogEntry: Sendable, CustomStringConvertible {
        /// How bad it is.
        public enum Level: String, Sendable, Hashable {
            /// Redis could not be used: a store was dropped, a query missed for that reason.
            case error
            /// Something odd that the cache handled: a corrupt value removed, an entry of a
            /// newer plug-in version skipped.
            case warning

            /// The level of the request event this entry also becomes.
            var eventLevel: ImageEvent.LogLevel {
                switch self {
                case .error: .error
                case .warning: .warning
                }
            }
        }

        /// How bad it is.
        public var level: Level
        /// What happened, naming the cache, the server and the key.
        public var message: String
        /// The error behind it, if any.
        public var error: WebImageError?

        /// A log entry.
        /// - Parameters: See the properties.
        public init(level: Level, message: String, error: WebImageError? = nil) {
            self.level = level
            self.message = message
            self.error = error
        }

        /// `[level] message`, the line the default handler writes.
        public var description: String { "[\(level.rawValue)] \(message)" }
    }

    /// What the cache has done since it was made. Read with ``statistics``.
    public struct Statistics: Sendable, Hashable {
        /// Queries answered from Redis.
        public var hits = 0
        /// Queries for keys Redis does not hold (or whose value was unusable).
        public var misses = 0
        /// Queries that became misses because Redis failed (down, slow, refused).
        public var failedQueries = 0
        /// Values written to Redis.
        public var stores = 0
        /// Stores dropped because Redis failed (each one logged).
        public var droppedStores = 0
        /// Stores not attempted: over ``Config/maxValueSize``, or an image without data that
        /// could not be encoded.
        public var skippedStores = 0
        /// Values found corrupt (or whose data the coder called bad) and removed.
        public var corruptValues = 0
        /// Removals, contains checks and clears that failed because Redis failed.
        public var failedMaintenance = 0

        /// All counters at zero.
        public init() {}
    }

    /// What an entry holds besides its data, from ``entryInfo(forKey:)``.
    public struct EntryInfo: Sendable, Hashable {
        /// The format the data was stored as.
        public var format: ImageFormat
        /// The image's pixel size, or ``/WebImageCore/PixelSize/zero`` when data was stored
        /// without an image.
        public var pixelSize: PixelSize
        /// The image's extended data, if it had any.
        public var extendedData: Data?
        /// The size of the image data in bytes.
        public var dataSize: Int
        /// The time left before Redis expires the entry, in seconds; `nil` when it never expires.
        public var timeToLive: TimeInterval?
    }

    /// Writes each entry as one line to standard error.
    public static let standardErrorLog: LogHandler = { entry in
        FileHandle.standardError.write(Data("\(entry)\n".utf8))
    }

    private struct State {
        var coder: any ImageCoder
        var promotionCache: MemoryCache?
        var hitCopyCache: (any ImageCache)?
        var statistics = Statistics()
    }

    /// The Redis client (shared by every cache made with it).
    public let client: RedisClient
    /// The settings.
    public let config: Config
    let keyspace: RedisKeyspace
    private let state: Locked<State>

    /// A cache over `client`.
    /// - Parameters:
    ///   - client: The Redis client; several caches (namespaces) may share one.
    ///   - config: The settings (namespace, max age, value size limit, log).
    ///   - coder: Decodes hits and encodes images stored without data, unless a request's
    ///     ``/WebImageCore/WebImageContext/imageCoder`` overrides it. Pass `CodersManager.shared`
    ///     (from the `SwiftWebImage` module) for every registered format.
    public init(client: RedisClient, config: Config = Config(), coder: any ImageCoder) {
        self.client = client
        self.config = config
        self.keyspace = RedisKeyspace(namespace: config.namespace)
        self.state = Locked(State(coder: coder))
    }

    /// A cache with a client of its own for the server `configuration` names.
    /// - Parameters:
    ///   - configuration: Where Redis is; timeouts, pool and backoff.
    ///   - config: The settings (namespace, max age, value size limit, log).
    ///   - coder: See ``init(client:config:coder:)``.
    public convenience init(configuration: RedisClient.Configuration, config: Config = Config(), coder: any ImageCoder) {
        self.init(client: RedisClient(configuration: configuration), config: config, coder: coder)
    }

    /// The namespace (``Config/namespace``).
    public var namespace: String { config.namespace }

    /// The coder for hits and for encoding, when the request's context names none.
    public var coder: any ImageCoder {
        get { state.withLock { $0.coder } }
        set { state.withLock { $0.coder = newValue } }
    }

    /// A memory cache that decoded hits are also put in (default none), so that the next query
    /// of the same key is served from memory. ``makeLayeredCache(memoryCache:)`` sets it to the
    /// memory cache in front. A hit is not promoted when the request's
    /// ``/WebImageCore/WebImageContext/storeCacheType`` leaves memory out, or with
    /// `decodeFirstFrameOnly` (the still image would shadow the animation), or when the query's
    /// thumbnail size or scale-down budget decoded it smaller than the stored data (the
    /// thumbnail would shadow the full-size image; see
    /// ``/WebImageCore/ImageDecodeRequest/mayPromote(_:)``).
    public var promotionCache: MemoryCache? {
        get { state.withLock { $0.promotionCache } }
        set { state.withLock { $0.promotionCache = newValue } }
    }

    /// A local cache whose disk tier gets a copy of each hit's data (default none), so that a
    /// server restarted after Redis lost its data (a restart without persistence, an eviction)
    /// still has what it got from Redis. The copy is written before the query returns, with
    /// cache type ``/WebImageCore/ImageCacheType/disk``; a failed copy is ignored.
    /// ``makeLayeredCache(over:promotingInto:copyingHitsToDisk:)`` sets it to the front cache.
    public var hitCopyCache: (any ImageCache)? {
        get { state.withLock { $0.hitCopyCache } }
        set { state.withLock { $0.hitCopyCache = newValue } }
    }

    /// The counters since the cache was made.
    public var statistics: Statistics {
        state.withLock { $0.statistics }
    }

    /// The Redis key that holds `key`: `swiftwebimage:<namespace byte count>:<namespace>:<key>`.
    public func redisKey(forKey key: String) -> Data {
        keyspace.redisKey(for: key)
    }

    /// The metadata of the entry for `key` and its time to live, read in one pipelined round
    /// trip (GET and PTTL).
    /// - Returns: `nil` on a miss, a corrupt value, or a Redis failure (logged).
    public func entryInfo(forKey key: String) async -> EntryInfo? {
        let redisKey = keyspace.redisKey(for: key)
        let replies: [RedisValue]
        do {
            replies = try await client.pipeline([.get(redisKey), .pttl(redisKey)])
        } catch {
            record { $0.failedMaintenance += 1 }
            log(.error, "could not read the entry info of key \(Self.describe(key))", error)
            return nil
        }
        guard case .bulkString(let value) = replies[0], let envelope = try? CacheEnvelope.decode(value) else { return nil }
        let milliseconds = replies[1].integer ?? -1
        return EntryInfo(
            format: envelope.format,
            pixelSize: envelope.pixelSize,
            extendedData: envelope.extendedData,
            dataSize: envelope.data.count,
            timeToLive: milliseconds >= 0 ? Double(milliseconds) / 1000 : nil
        )
    }

    // MARK: Internals shared with the ImageCache conformance

    func record(_ update: (inout Statistics) -> Void) {
        state.withLock { update(&$0.statistics) }
    }

    /// Reports through the log handler (never under a lock) and, when `context` is a request's
    /// that carries an ``/WebImageCore/WebImageContext/imageEventSink``, as that request's event too.
    func log(_ level: LogEntry.Level, _ what: String, _ error: (any Error)? = nil, context: WebImageContext? = nil) {
        let webImageError = error.map { ($0 as? WebImageError) ?? WebImageError(.cacheFailure, "\($0)") }
        var message = "RedisImageCache \(String(reflecting: config.namespace)) at \(client.configuration.endpoint): \(what)"
        if let webImageError { message += ": \(webImageError.message)" }
        config.logHandler(LogEntry(level: level, message: message, error: webImageError))
        context?.imageEventSink?.emit(.log(level: level.eventLevel, source: "RedisImageCache", message: message))
    }

    /// A key for a message: quoted with escapes, cut after 120 characters.
    static func describe(_ key: String) -> String {
        if key.count <= 120 { return String(reflecting: key) }
        return String(reflecting: String(key.prefix(120))) + "... (\(key.count) characters)"
    }
}
