public import Foundation
import WebImageCore
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The on-disk tier: encoded data (and per-entry extended data) by key, in one directory per
/// namespace (SDWebImage's `SDDiskCache`, Nuke's `DataCache`). Also usable alone as a raw
/// data cache.
///
/// - **Layout.** One file per entry in ``directory``, named by ``fileName(forKey:)``: the
///   SHA-256 of the key in hex plus the key's path extension. No key can name a path outside
///   the directory. Files the cache keeps besides entries start with a dot: temporary files
///   (`.tmp-*`) and extended-data sidecars (`.ext-<entry>`).
/// - **Atomic writes.** Data goes to a temporary file in the same directory, which is then
///   renamed over the entry: a reader sees the old entry or the new one, never a partial file,
///   even if the process is killed mid-write. (Surviving power loss as well needs
///   ``Config/synchronizesWrites``.)
/// - **Extended data** sits in an extended attribute (`user.swiftwebimage.extended`) where the
///   file system supports it, and in a sidecar file where it does not (or when the value is too
///   large for an attribute, or ``Config/extendedDataStorage`` says ``ExtendedDataStorage/sidecar``).
///   A store is atomic for readers with a sidecar too: the sidecar starts with a header that
///   names the data it belongs to (the data file's inode, size and modification time, and the
///   SHA-256 of its bytes), goes in place before that data, and an old one is removed only
///   after the new data replaced the old. A read pairs data only with a sidecar that names it;
///   one that finds another write's sidecar (a store between its two renames) reads again, up
///   to 6 times, and is then a miss: ``entry(forKey:)`` returns one write's data and extended
///   data, or nothing, never a mix. A miss stays until the next store when a process was
///   killed between the two renames. Sidecars of the older format (the extended data alone)
///   make the entry such a miss; in a read-only directory, which nothing writes, they are
///   taken as they are.
/// - **Limits.** ``Config/sizeLimit`` (default 1 GiB) is enforced on every write: when the
///   total goes over it, expired entries are removed, then the oldest (by
///   ``Config/expireType``) until the total is at most half the limit, as SDWebImage's sweep
///   does. ``removeExpiredData(referenceDate:)`` does the same on demand. Entries older than
///   ``Config/maxAge`` (default 1 week, by access date) are removed by those sweeps; call
///   `removeExpiredData()` at launch or periodically, as SDWebImage does on app termination.
/// - **Read-only directories.** ``Config/additionalReadOnlyDirectories`` are searched, in
///   order, after a miss: a folder of pre-populated files named by ``fileName(forKey:)`` (or
///   that name without its extension). They are never written, swept or counted.
/// - **Errors.** Reads never throw: a missing or unreadable file is a miss. Writes throw
///   ``/WebImageCore/WebImageError`` with ``/WebImageCore/WebImageError/Code/cacheFailure`` naming the key, the path and
///   the system error (read-only or full disk, ...).
///
/// The size accounting is per instance: the directory is listed on the first write and again
/// by every sweep; entries written meanwhile by other processes count from the next sweep on.
/// Several instances (or processes) may share a directory safely; each keeps the limit as far
/// as it knows.
///
/// Thread-safety: every member may be called from any thread, concurrently. The synchronous
/// methods do blocking file I/O on the calling thread; the ``/WebImageCore/ImageCache`` methods run it on
/// ``/WebImageCore/BlockingWorkExecutor/fileIO``.
public final class DiskCache: Sendable {
    /// Which date of a file counts for expiry and for "oldest first" (SDWebImage's
    /// `SDImageCacheConfigExpireType`).
    public enum ExpireType: String, Sendable, Hashable, CaseIterable {
        /// When the entry was last read or written (the default). Reads set the access time
        /// explicitly, so this works on file systems mounted `noatime` or `relatime`.
        case accessDate
        /// When the entry was last written.
        case modificationDate
        /// When the entry's file was created (the birth time, where the file system reports
        /// it; else the modification date, which is the same for files this cache wrote,
        /// since every write creates a new file).
        case creationDate
        /// When the file's status last changed (the `ctime`).
        case changeDate
    }

    /// Where extended data is kept.
    public enum ExtendedDataStorage: String, Sendable, Hashable, CaseIterable {
        /// An extended attribute where the file system supports it; a sidecar file where it does
        /// not, or when the value is too large for an attribute.
        case automatic
        /// Always a sidecar file `.ext-<entry>` beside the entry.
        case sidecar
    }

    /// The settings of a disk cache. Change them at any time through ``DiskCache/config``.
    public struct Config: Sendable {
        /// The most bytes of entries (data plus sidecars) kept. Default ``DiskCache/defaultSizeLimit``
        /// (1 GiB). A single entry larger than this is refused.
        public var sizeLimit: Int
        /// How long an entry lives after its ``expireType`` date, in seconds. Default 1 week.
        /// Negative: never expires; 0: everything expires at the next sweep (SDWebImage's rule).
        public var maxAge: TimeInterval
        /// Which date counts for expiry and for trimming. Default ``ExpireType/accessDate``.
        public var expireType: ExpireType
        /// Where extended data is kept. Default ``ExtendedDataStorage/automatic``.
        public var extendedDataStorage: ExtendedDataStorage
        /// Directories searched, in order, after a miss; never written. Default none.
        public var additionalReadOnlyDirectories: [URL]
        /// Whether each write is flushed to the device (`fsync`) before it becomes visible.
        /// Default `false`: atomic renames already protect against a killed process; this
        /// adds protection against power loss, at a large cost in write speed.
        public var synchronizesWrites: Bool

        /// Settings as given; see each property for its default.
        /// - Parameters: See the properties.
        public init(
            sizeLimit: Int = DiskCache.defaultSizeLimit,
            maxAge: TimeInterval = DiskCache.defaultMaxAge,
            expireType: ExpireType = .accessDate,
            extendedDataStorage: ExtendedDataStorage = .automatic,
            additionalReadOnlyDirectories: [URL] = [],
            synchronizesWrites: Bool = false
        ) {
            self.sizeLimit = sizeLimit
            self.maxAge = maxAge
            self.expireType = expireType
            self.extendedDataStorage = extendedDataStorage
            self.additionalReadOnlyDirectories = additionalReadOnlyDirectories
            self.synchronizesWrites = synchronizesWrites
        }
    }

    /// The default size limit: 1 GiB. (SDWebImage's default is unlimited, a known source of
    /// complaints.)
    public static let defaultSizeLimit = 1 << 30
    /// The default maximum age: one week, as SDWebImage.
    public static let defaultMaxAge: TimeInterval = 7 * 24 * 60 * 60

    /// Temporary files and orphan sidecars older than this are removed by sweeps (younger ones
    /// may belong to a write in progress, in this process or another).
    static let staleFileAge: Double = 10 * 60
    /// A read refreshes the file's access time only when it is older than this, saving a
    /// system call per hit; within the process the index keeps the exact time of every read.
    static let accessTimeResolution: Double = 60

    struct State {
        var config: Config
        var index: DiskIndex?
        var directoryReady = false
        /// Learned at the first attempt: `nil` until then.
        var extendedAttributesSupported: Bool?
    }

    /// The directory of the entries.
    public let directory: URL
    /// ``directory`` as a file system path.
    let directoryPath: String
    let state: Locked<State>
    /// Held by the sweep and by the first listing of the directory, so that only one of them
    /// lists and deletes at a time.
    let sweepLock = Locked(())
    private let temporaryCounter = Atomic<UInt64>(0)

    /// A disk cache in `directory`, which is created on the first write. Creating the cache
    /// does no I/O.
    /// - Parameters:
    ///   - directory: A file URL of the directory the entries go in.
    ///   - config: The settings (default ``Config/init(sizeLimit:maxAge:expireType:extendedDataStorage:additionalReadOnlyDirectories:synchronizesWrites:)``).
    public init(directory: URL, config: Config = Config()) {
        var path = directory.path
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        self.directory = URL(fileURLWithPath: path, isDirectory: true)
        self.directoryPath = path
        self.state = Locked(State(config: config))
    }

    /// A disk cache in ``defaultDirectory(namespace:environment:)`` for `namespace`.
    public convenience init(namespace: String, config: Config = Config()) {
        self.init(directory: Self.defaultDirectory(namespace: namespace), config: config)
    }

    /// The settings. Changing them takes effect at the next operation; a lower size limit is
    /// enforced at the next write.
    public var config: Config {
        get { state.withLock { $0.config } }
        set { state.withLock { $0.config = newValue } }
    }

    /// The file name of `key`: 64 lowercase hex digits (SHA-256 of the key's UTF-8 bytes), plus
    /// `.` and the key's path extension when it is 1 to 16 ASCII letters or digits.
    public static func fileName(forKey key: String) -> String {
        CacheFileName.name(forKey: key)
    }

    /// The file `key` is (or would be) stored at, in ``directory``.
    public func fileURL(forKey key: String) -> URL {
        directory.appendingPathComponent(Self.fileName(forKey: key), isDirectory: false)
    }

    // MARK: Reading

    /// The data stored under `key`, from ``directory`` or else the read-only directories.
    /// With ``ExpireType/accessDate`` the entry's access time becomes now.
    /// - Returns: The data, or `nil` on a miss (or an unreadable file).
    public func data(forKey key: String) -> Data? {
        readEntry(forKey: key, withExtendedData: false)?.data
    }

    /// The data and extended data stored under `key`, by one write (see the extended data
    /// above: a store in progress is waited out briefly, never mixed with).
    /// - Returns: The entry, or `nil` on a miss.
    public func entry(forKey key: String) -> DiskStorageEntry? {
        readEntry(forKey: key, withExtendedData: true)
    }

    /// The extended data stored with `key`, or `nil` if there is none or no entry (or its
    /// extended data cannot be told apart from a store in progress; see ``entry(forKey:)``).
    /// Does not count as an access.
    public func extendedData(forKey key: String) -> Data? {
        read(forKey: key, data: false, extendedData: true, recordsAccess: false)?.extendedData
    }

    /// Whether an entry exists for `key` (in ``directory`` or a read-only directory).
    public func containsData(forKey key: String) -> Bool {
        let name = Self.fileName(forKey: key)
        var info = stat()
        return searchLocations(for: name).contains { directory, candidate in
            stat(directory + "/" + candidate, &info) == 0 && FileIO.isRegularFile(info)
        }
    }

    /// The directories and file names to try for an entry: ``directory``, then each read-only
    /// directory with the name and with the name without its extension (SDWebImage's rule).
    private func searchLocations(for name: String) -> [(directory: String, name: String)] {
        [(directoryPath, name)] + readOnlyLocations(for: name)
    }

    /// The read-only part of ``searchLocations(for:)``.
    private func readOnlyLocations(for name: String) -> [(directory: String, name: String)] {
        let readOnly = state.withLock { $0.config.additionalReadOnlyDirectories }
        guard !readOnly.isEmpty else { return [] }
        var locations: [(directory: String, name: String)] = []
        let bare = name.split(separator: ".", maxSplits: 1).first.map(String.init) ?? name
        for url in readOnly {
            locations.append((url.path, name))
            if bare != name { locations.append((url.path, bare)) }
        }
        return locations
    }

    func readEntry(forKey key: String, withExtendedData: Bool) -> DiskStorageEntry? {
        guard let parts = read(forKey: key, data: true, extendedData: withExtendedData, recordsAccess: true), let data = parts.data else { return nil }
        return DiskStorageEntry(data: data, extendedData: parts.extendedData)
    }

    /// How many times a read tries to pair an entry's data with its extended data while a
    /// store of the same key is between its two renames, before it calls the entry a miss.
    static let pairingAttempts = 6

    /// What one read of an entry file found.
    enum ReadAttempt {
        /// The data (when asked for) and the extended data (when asked for, `nil` for none)
        /// of one write.
        case found(data: Data?, extendedData: Data?)
        /// No readable file there.
        case missing
        /// The sidecar found belongs to another write of the entry (or of an older format):
        /// read the entry again.
        case unsettled
    }

    /// Reads `key` from ``directory``, else from the read-only directories.
    ///
    /// A read that finds the data of one write and the sidecar of another (a store between its
    /// two renames) reads again, up to ``pairingAttempts`` times, then is a miss: it never
    /// pairs data with extended data of another write.
    /// - Parameters:
    ///   - data: Read the data.
    ///   - extendedData: Read the extended data.
    ///   - recordsAccess: With ``ExpireType/accessDate``, make the access time now (a hit in
    ///     ``directory`` also counts in the index).
    func read(forKey key: String, data: Bool, extendedData: Bool, recordsAccess: Bool) -> (data: Data?, extendedData: Data?)? {
        let name = Self.fileName(forKey: key)
        let touches = recordsAccess && state.withLock { $0.config.expireType == .accessDate }
        let now = FileIO.now()
        for attempt in 0..<Self.pairingAttempts {
            if attempt > 0 { sched_yield() }
            switch readFile(directory: directoryPath, name: name, data: data, extendedData: extendedData, writable: true, touchingAt: touches ? now : nil) {
            case .found(let bytes, let extended):
                if recordsAccess { state.withLock { $0.index?.recordRead(name, time: now) } }
                return (bytes, extended)
            case .unsettled:
                continue
            case .missing:
                for location in readOnlyLocations(for: name) {
                    if case .found(let bytes, let extended) = readFile(directory: location.directory, name: location.name, data: data, extendedData: extendedData, writable: false, touchingAt: nil) {
                        return (bytes, extended)
                    }
                }
                return nil
            }
        }
        return nil
    }

    /// One read of the entry file `directory/name` and, when asked, of its extended data.
    /// - Parameters:
    ///   - writable: Whether `directory` is the cache's own (stores may be in progress there);
    ///     see ``extendedData(ofOpenFile:info:path:directory:name:data:writable:)``.
    ///   - touchingAt: Refresh the access time when it is older than this minus
    ///     ``accessTimeResolution``; `nil` to leave it.
    private func readFile(directory: String, name: String, data: Bool, extendedData: Bool, writable: Bool, touchingAt now: Double?) -> ReadAttempt {
        let path = directory + "/" + name
        return FileIO.withOpenedFile(path) { fd, info -> ReadAttempt in
            var bytes: Data?
            if data {
                guard let read = FileIO.readAll(fd, size: Int(info.st_size)) else { return .missing }
                bytes = read
            }
            var extended: Data?
            if extendedData {
                switch self.extendedData(ofOpenFile: fd, info: info, path: path, directory: directory, name: name, data: { bytes ?? FileIO.readAll(fd, size: Int(info.st_size)) }, writable: writable) {
                case .value(let value): extended = value
                case .none: extended = nil
                case .unsettled: return .unsettled
                }
            }
            if let now, now - FileIO.fileTimes(info).access > Self.accessTimeResolution {
                FileIO.touchAccessTime(fd)
            }
            return .found(data: bytes, extendedData: extended)
        } ?? .missing
    }

    // MARK: Writing

    /// Stores `data` (and `extendedData`, replacing any earlier extended data) under `key`,
    /// atomically, then enforces the size limit.
    /// - Parameters:
    ///   - data: The bytes to store.
    ///   - key: The key (any string).
    ///   - extendedData: Extended data stored with the entry; `nil` stores none.
    /// - Throws: ``/WebImageCore/WebImageError/Code/cacheFailure`` when the data is larger than the size
    ///   limit or the write fails (read-only or full disk, ...); the previous entry, if any,
    ///   is then unchanged.
    public func setData(_ data: Data, forKey key: String, extendedData: Data? = nil) throws {
        let config = self.config
        guard data.count + (extendedData?.count ?? 0) <= config.sizeLimit else {
            throw WebImageError(.cacheFailure, "DiskCache did not store key \(Self.describe(key)): \(data.count + (extendedData?.count ?? 0)) bytes are over the size limit of \(config.sizeLimit) bytes of \(directoryPath)")
        }
        try prepareForWrites(key: key)
        let name = Self.fileName(forKey: key)
        let sidecarBytes: Int
        do {
            sidecarBytes = try writeAtomically(data, extendedData: extendedData, name: name, config: config)
        } catch {
            throw failure("store", key: key, error)
        }
        let overLimit = state.withLock { state -> Bool in
            state.index?.recordWrite(name, size: data.count + sidecarBytes, time: FileIO.now())
            return (state.index?.totalSize ?? 0) > state.config.sizeLimit
        }
        if overLimit { sweep(referenceDate: FileIO.now(), onlyIfOverLimit: true) }
    }

    /// Removes the entry for `key` (and its sidecar) from ``directory``. Read-only directories
    /// are left alone.
    public func removeData(forKey key: String) {
        let name = Self.fileName(forKey: key)
        FileIO.removeFile(directoryPath + "/" + name)
        FileIO.removeFile(directoryPath + "/" + CacheFileName.sidecarName(for: name))
        state.withLock { $0.index?.recordRemoval(name) }
    }

    /// Creates the directory and lists it once.
    private func prepareForWrites(key: String) throws {
        if state.withLock({ $0.directoryReady && $0.index != nil }) { return }
        do {
            try FileIO.makeDirectories(directoryPath)
        } catch {
            throw failure("create its directory to store", key: key, error)
        }
        state.withLock { $0.directoryReady = true }
        sweepLock.withLock { _ in
            guard state.withLock({ $0.index == nil }) else { return }
            let listed = scan(expireType: nil)?.entries.map { (name: $0.name, size: $0.size) } ?? []
            state.withLock { state in
                if state.index == nil { state.index = DiskIndex(scanned: listed) }
            }
        }
    }

    /// A unique path for a temporary file in the directory.
    func makeTemporaryPath() -> String {
        let count = temporaryCounter.wrappingAdd(1, ordering: .relaxed).newValue
        return directoryPath + "/" + CacheFileName.temporaryPrefix + "\(getpid())-\(count)-\(String(UInt64.random(in: 0...UInt64.max), radix: 36))"
    }

    /// Writes `data` to a temporary file, adds the extended data (attribute or sidecar), and
    /// renames it over the entry `name`.
    ///
    /// The order makes the store atomic for readers, with their checks (see
    /// ``extendedData(ofOpenFile:info:path:directory:name:data:writable:)``): a sidecar goes in
    /// place before the data it belongs to, and names that data (``ExtendedDataSidecar``); a
    /// sidecar of an earlier write that the new data does not need is removed after the data
    /// replaced the old one. When the final rename fails, the new sidecar stays: it belongs to
    /// no data, so readers of the old entry get a miss rather than a mix.
    /// - Returns: The bytes of the sidecar written (0 if none).
    private func writeAtomically(_ data: Data, extendedData: Data?, name: String, config: Config) throws -> Int {
        let temporary = makeTemporaryPath()
        var fd = FileIO.open(temporary, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        if fd < 0, errno == ENOENT {  // the directory was removed behind our back
            try FileIO.makeDirectories(directoryPath)
            fd = FileIO.open(temporary, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        }
        guard fd >= 0 else { throw SystemCallError("open", temporary) }
        var sidecar: Data?
        do {
            try FileIO.writeAll(fd, data, path: temporary)
            if let extendedData {
                let stored = config.extendedDataStorage == .automatic
                    ? try storeExtendedAttribute(extendedData, fd: fd, path: temporary)
                    : false
                if !stored {
                    // The data is complete: its identity (inode, size, modification time) is final.
                    var info = stat()
                    guard fstat(fd, &info) == 0 else { throw SystemCallError("fstat", temporary) }
                    sidecar = ExtendedDataSidecar(extendedData: extendedData, dataFile: info, data: data).encoded
                }
            }
            if config.synchronizesWrites, fsync(fd) != 0 { throw SystemCallError("fsync", temporary) }
        } catch {
            FileIO.close(fd)
            FileIO.removeFile(temporary)
            throw error
        }
        FileIO.close(fd)
        let sidecarPath = directoryPath + "/" + CacheFileName.sidecarName(for: name)
        if let sidecar {
            do {
                try writeSidecar(sidecar, to: sidecarPath, synchronizes: config.synchronizesWrites)
            } catch {
                FileIO.removeFile(temporary)
                throw error
            }
        }
        guard rename(temporary, directoryPath + "/" + name) == 0 else {
            let error = SystemCallError("rename", temporary)
            FileIO.removeFile(temporary)
            throw error
        }
        if sidecar == nil {
            // A sidecar of an earlier write must not outlive it.
            FileIO.removeFile(sidecarPath)
        }
        return sidecar?.count ?? 0
    }

    // MARK: Messages

    /// A key for a message: quoted with escapes (so NUL bytes and newlines show), and cut
    /// after 120 characters.
    static func describe(_ key: String) -> String {
        if key.count <= 120 { return String(reflecting: key) }
        return String(reflecting: String(key.prefix(120))) + "... (\(key.count) characters)"
    }

    /// The error thrown when `operation` fails for `key`.
    func failure(_ operation: String, key: String, _ error: any Error) -> WebImageError {
        if let error = error as? WebImageError { return error }
        let system = error as? SystemCallError
        return WebImageError(
            .cacheFailure,
            "DiskCache could not \(operation) key \(Self.describe(key)) in \(directoryPath): \(error)",
            underlyingError: system?.posixError
        )
    }
}
