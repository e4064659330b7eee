public import Foundation
public import WebImageCaches
import CSQLite
import WebImageCore

/// The on-disk tier of ``SQLiteImageCache``: encoded data and extended data by key, in one
/// SQLite database instead of one file per entry (YYCache's `YYKVStorage`, PINCache). Also
/// usable alone as a raw data cache; its synchronous API matches ``/WebImageCaches/DiskCache``'s.
///
/// - **Layout.** `directory/cache.sqlite` (with SQLite's `-wal` and `-shm` files) holds one
///   table, `entries`: key (the key's UTF-8 bytes), size, access time, creation time, file name,
///   extended data, data (blobs last, so that reaching the small columns never walks a large
///   value), and one index on access time that also covers size and file name (eviction and
///   the totals read the index, never the rows). Values up to ``Config/inlineThreshold``
///   (default 20 kB, YYCache's measured break-even) are stored inline in the row; larger ones
///   in a file under `directory/files/` whose random name the row records.
/// - **Transactions, WAL.** The database runs in write-ahead-log mode; every write is one
///   transaction (`BEGIN IMMEDIATE`), so readers never see half of it.
/// - **Crash safety.** A value file is written in full before the transaction that names it
///   commits; an overwrite writes a new file and removes the old one only after the commit. A
///   process killed mid-write therefore leaves either the old entry or the new one, plus at most
///   an orphan file, which ``removeExpiredData(referenceDate:)`` deletes once it is 10 minutes
///   old (a younger one may belong to a write in progress in another process). A read also
///   checks that a value file has exactly the recorded size; a file that does not (truncated
///   by someone else, or lost in a power failure without ``Config/synchronizesWrites``) is a
///   miss, and its row is removed.
/// - **Limits.** ``Config/sizeLimit`` (default 1 GiB, as ``/WebImageCaches/DiskCache``) and
///   ``Config/countLimit`` (default none) are enforced in the transaction of every write: expired
///   entries go first, then the least recently used, until both limits hold again (exactly
///   the limits, not half of them as ``/WebImageCaches/DiskCache``'s sweep: deleting rows is cheap). A value
///   larger than the size limit alone is refused.
/// - **Recency.** Reads do not write: the access times they set are kept in memory (one per
///   key, the latest) and written when a write goes over a limit and must evict, by sweeps, when
///   4,096 keys are pending, and when the cache is deinitialized. A read is one indexed `SELECT`,
///   where writing its access time at once would rewrite the whole row (value included) and its
///   index entry, and measured 5-8 times slower. Within a process the order is exact (times are
///   strictly increasing, and read times count for expiry before they are written); other
///   processes see them once written; a killed process loses the access times of its last reads,
///   which only makes those entries look a little older.
/// - **Expiry.** An entry older than ``Config/maxAge`` (default 1 week, by access date unless
///   ``Config/expireType`` says creation date) is a miss and is removed when read; writes that
///   hit a limit and ``removeExpiredData(referenceDate:)`` remove the rest.
/// - **Damaged database.** A file that is not a SQLite database, a corrupt one, or one written
///   by an unknown schema version is deleted (with its value files) and made anew: this is a
///   cache, and a cache never fails a load.
/// - **Errors.** Reads never throw: any problem is a miss. Writes throw ``/WebImageCore/WebImageError`` with
///   ``/WebImageCore/WebImageError/Code/cacheFailure`` naming the key, the path and SQLite's or the system's
///   message.
///
/// Threading: **one connection, serialized** by a mutex (a `Locked` state), rather than a
/// connection per thread. SQLite admits one writer at a time anyway (WAL lets readers run beside
/// it, but ours are indexed lookups of a few microseconds, far below the decoding that follows
/// them); the threads that call a cache belong to Dispatch and the Swift concurrency pool, not to
/// us, so per-thread connections would be opened on threads we cannot close them on, each with
/// its own page cache and prepared statements; and one connection makes the in-memory totals
/// and pending access times simple to keep right. Nothing slow runs under the mutex: value files
/// are written before it is taken and read after it is released, and no user code runs there.
/// Several instances and processes may share a database: SQLite's file locks (with a 10 s busy
/// timeout) serialize their writes, and every write transaction re-reads the totals when another
/// connection has committed since (`PRAGMA data_version`).
///
/// Thread-safety: every member may be called from any thread, concurrently. Every method does
/// blocking I/O on the calling thread; ``SQLiteImageCache`` calls them on the core's bounded executors.
public final class SQLiteDiskCache: Sendable {
    /// Which time of an entry counts for expiry.
    public enum ExpireType: String, Sendable, Hashable, CaseIterable {
        /// When the entry was last read or written (the default).
        case accessDate
        /// When the entry was last written.
        case creationDate
    }

    /// The settings of a SQLite disk cache. Change them at any time through
    /// ``SQLiteDiskCache/config``.
    public struct Config: Sendable {
        /// The most bytes (data plus extended data) kept. Default ``/WebImageCaches/DiskCache/defaultSizeLimit``
        /// (1 GiB). A single entry larger than this is refused.
        public var sizeLimit: Int
        /// The most entries kept. Default `Int.max` (no limit).
        public var countLimit: Int
        /// How long an entry lives after its ``expireType`` time, in seconds. Default one week
        /// (``/WebImageCaches/DiskCache/defaultMaxAge``). Negative: entries never expire; 0: they expire at once.
        public var maxAge: TimeInterval
        /// Which time counts for expiry. Default ``ExpireType/accessDate``.
        public var expireType: ExpireType
        /// Values of more than this many bytes go to a file beside the database; smaller ones
        /// stay in the row. Default ``SQLiteDiskCache/defaultInlineThreshold`` (20 kB).
        public var inlineThreshold: Int
        /// Whether writes survive power loss too: SQLite's `synchronous = FULL` and an `fsync`
        /// of every value file. Default `false` (`synchronous = NORMAL`, no `fsync`): a killed
        /// process loses nothing committed; a power failure may lose the last writes.
        public var synchronizesWrites: Bool

        /// Settings as given; see each property for its default.
        /// - Parameters: See the properties.
        public init(
            sizeLimit: Int = DiskCache.defaultSizeLimit,
            countLimit: Int = Int.max,
            maxAge: TimeInterval = DiskCache.defaultMaxAge,
            expireType: ExpireType = .accessDate,
            inlineThreshold: Int = SQLiteDiskCache.defaultInlineThreshold,
            synchronizesWrites: Bool = false
        ) {
            self.sizeLimit = sizeLimit
            self.countLimit = countLimit
            self.maxAge = maxAge
            self.expireType = expireType
            self.inlineThreshold = inlineThreshold
            self.synchronizesWrites = synchronizesWrites
        }
    }

    /// 20 kB: above this, YYCache found reading a file faster than reading a SQLite blob.
    public static let defaultInlineThreshold = 20 * 1024
    /// The database's file name in ``directory``.
    public static let databaseFileName = "cache.sqlite"
    /// The name of the directory of value files in ``directory``.
    public static let filesDirectoryName = "files"
    /// The schema version this cache writes (`PRAGMA user_version`).
    static let schemaVersion: Int64 = 1
    /// Value files that no row names are removed once older than this.
    static let staleFileAge: TimeInterval = 10 * 60
    /// Pending access times are written once this many keys have gathered (about 100 bytes of
    /// memory each).
    static let touchBatchSize = 4_096

    struct State {
        var config: Config
        var connection: SQLiteConnection?
        /// The `synchronous` setting the connection runs with.
        var synchronousFull = false
        /// Totals of the rows, as of ``dataVersion``.
        var totalSize = 0
        var totalCount = 0
        var dataVersion: Int64 = -1
        /// Access times of reads not yet written, by key.
        var pendingTouches: [String: Int64] = [:]
        /// The last time handed out, in microseconds: times are strictly increasing.
        var lastTime: Int64 = 0
        /// Value files of committed removals, deleted after the lock is released.
        var obsoleteFiles: [String] = []
    }

    /// The directory of the database and the value files.
    public let directory: URL
    let databasePath: String
    let files: ValueFiles
    let clock: @Sendable () -> Date
    let state: Locked<State>

    /// A cache in `directory`, which is created on first use. Creating the cache does no I/O.
    /// - Parameters:
    ///   - directory: A file URL of the directory of the database and its value files.
    ///   - config: The settings.
    ///   - clock: The time source for access and creation times and for expiry (default: the
    ///     system clock). Tests pass a clock they move.
    public init(directory: URL, config: Config = Config(), clock: @escaping @Sendable () -> Date = { Date() }) {
        var path = directory.path
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        self.directory = URL(fileURLWithPath: path, isDirectory: true)
        self.databasePath = path + "/" + Self.databaseFileName
        self.files = ValueFiles(directoryPath: path + "/" + Self.filesDirectoryName)
        self.clock = clock
        self.state = Locked(State(config: config))
    }

    deinit {
        // Best effort: keep the recency of the last reads.
        state.withLock { state in
            guard let connection = state.connection, !state.pendingTouches.isEmpty else { return }
            try? connection.writeTransaction { try writeTouches(state.pendingTouches, connection) }
        }
    }

    /// The settings. Changing them takes effect at the next operation; a lower limit is
    /// enforced at the next write.
    public var config: Config {
        get { state.withLock { $0.config } }
        set { state.withLock { $0.config = newValue } }
    }

    /// The database file.
    public var databaseURL: URL {
        URL(fileURLWithPath: databasePath, isDirectory: false)
    }

    /// The directory of the value files.
    public var filesDirectory: URL {
        URL(fileURLWithPath: files.directoryPath, isDirectory: true)
    }

    // MARK: Reading

    /// The data and extended data stored under `key`, read together. The entry becomes the most
    /// recently used.
    /// - Returns: The entry, or `nil` on a miss, an expired entry, or any read problem.
    public func entry(forKey key: String) -> DiskStorageEntry? {
        // Twice at most: a value file may be replaced between the lookup and the read.
        for _ in 0..<2 {
            let found: Lookup
            do {
                found = try withDatabase { state, connection in try self.lookup(key, touch: true, &state, connection) }
            } catch {
                return nil
            }
            switch found {
            case .miss:
                return nil
            case .inline(let data, let extended):
                return DiskStorageEntry(data: data, extendedData: extended)
            case .file(let name, let size, let extended):
                if let data = files.contents(of: name, expectedSize: size) {
                    return DiskStorageEntry(data: data, extendedData: extended)
                }
                // Missing or of the wrong size: broken if the row still names it; else the entry
                // was replaced or removed meanwhile, so look again.
                let removedBroken = (try? withDatabase { state, connection in
                    try self.removeRow(key, onlyIfFile: name, &state, connection)
                }) ?? false
                if removedBroken { return nil }
            }
        }
        return nil
    }

    /// The data stored under `key` (see ``entry(forKey:)``).
    public func data(forKey key: String) -> Data? {
        entry(forKey: key)?.data
    }

    /// The extended data stored with `key`, or `nil` if there is none or no entry. Does not
    /// read a value file, and does not change the entry's recency.
    public func extendedData(forKey key: String) -> Data? {
        let found = try? withDatabase { state, connection in try self.lookup(key, touch: false, &state, connection) }
        switch found {
        case .inline(_, let extended)?, .file(_, _, let extended)?: return extended
        case .miss?, nil: return nil
        }
    }

    /// Whether an unexpired entry exists for `key`. Does not change its recency.
    public func containsData(forKey key: String) -> Bool {
        let found = try? withDatabase { state, connection in try self.lookup(key, touch: false, &state, connection) }
        if case .miss? = found { return false }
        return found != nil
    }

    // MARK: Writing

    /// Stores `data` (and `extendedData`, replacing any earlier extended data) under `key` in
    /// one transaction, then removes expired and least recently used entries until the limits
    /// hold.
    /// - Parameters:
    ///   - data: The bytes to store.
    ///   - key: The key (any string, including empty ones and ones with NUL bytes).
    ///   - extendedData: Extended data stored with the entry; `nil` stores none.
    /// - Throws: ``/WebImageCore/WebImageError/Code/cacheFailure`` when the entry is larger than the size
    ///   limit, the count limit is below 1, or the write fails (read-only or full disk, ...);
    ///   the previous entry, if any, is then unchanged.
    public func setData(_ data: Data, forKey key: String, extendedData: Data? = nil) throws {
        let config = self.config
        let size = data.count + (extendedData?.count ?? 0)
        guard size <= config.sizeLimit, config.countLimit > 0 else {
            throw WebImageError(.cacheFailure, "SQLiteDiskCache did not store key \(Self.describe(key)): \(size) bytes, size limit \(config.sizeLimit) bytes, count limit \(config.countLimit), in \(directory.path)")
        }
        var fileName: String?
        if data.count > config.inlineThreshold {
            do {
                fileName = try files.create(data, synchronize: config.synchronizesWrites)
            } catch {
                throw failure("store", key: key, error)
            }
        }
        do {
            try withDatabase { state, connection in
                try self.write(key: key, inline: fileName == nil ? data : nil, fileName: fileName, extendedData: extendedData, size: size, &state, connection)
            }
        } catch {
            if let fileName { files.remove(fileName) }
            throw failure("store", key: key, error)
        }
    }

    /// Removes the entry for `key`. A failure (the database cannot be opened) is ignored: there
    /// is then nothing to remove that could be read.
    public func removeData(forKey key: String) {
        _ = try? withDatabase { state, connection in
            state.pendingTouches[key] = nil
            return try self.removeRow(key, onlyIfFile: nil, &state, connection)
        }
    }

    /// Removes every entry and its value file, and gives the freed pages back to the file system.
    public func removeAll() {
        _ = try? withDatabase { state, connection in
            let names = try connection.writeTransaction {
                try connection.withStatement("DELETE FROM entries RETURNING file_name") { statement in
                    var names: [String] = []
                    while try statement.step() {
                        if let name = statement.string(0) { names.append(name) }
                    }
                    return names
                }
            }
            state.obsoleteFiles += names
            state.pendingTouches.removeAll()
            state.totalSize = 0
            state.totalCount = 0
            // Give the pages back: cheap on an empty table. Another connection reading at this
            // moment makes it fail (busy); the pages are then reused by later writes.
            try? connection.execute("VACUUM")
            try? connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        }
    }

    // MARK: Totals

    /// The bytes stored (data plus extended data of every entry, expired ones included).
    public func totalSize() -> Int {
        (try? withDatabase { _, connection in try self.totals(connection).size }) ?? 0
    }

    /// The number of entries (expired ones included).
    public func totalCount() -> Int {
        (try? withDatabase { _, connection in try self.totals(connection).count }) ?? 0
    }

    // MARK: Messages

    /// A key for a message: quoted with escapes, cut after 120 characters.
    static func describe(_ key: String) -> String {
        if key.count <= 120 { return String(reflecting: key) }
        return String(reflecting: String(key.prefix(120))) + "... (\(key.count) characters)"
    }

    /// The error thrown when `operation` fails for `key`.
    func failure(_ operation: String, key: String, _ error: any Error) -> WebImageError {
        if let error = error as? WebImageError { return error }
        return WebImageError(
            .cacheFailure,
            "SQLiteDiskCache could not \(operation) key \(Self.describe(key)) in \(directory.path): \(error)",
            underlyingError: (error as? FileFailure)?.posixError
        )
    }
}
