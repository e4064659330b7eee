public import Foundation

/// The disk tier of a ``WebImageCache``: the synchronous store of encoded image data (and its
/// extended data) by key that the cache reads, writes and sweeps. ``DiskCache`` is the built-in
/// one; a plug-in (a database, a key-value store, ...) conforms to put itself under the cache's
/// memory tier, its query options and its coders with
/// ``WebImageCache/init(namespace:diskStorage:config:coder:)``. This is the seam of SDWebImage's
/// `SDDiskCache` protocol (`SDImageCacheConfig.diskCacheClass`).
///
/// What a conforming type must do:
/// - **Thread-safety:** every member may be called from any thread, concurrently (the cache
///   calls them on ``/WebImageCore/BlockingWorkExecutor/fileIO``, and on the calling thread for the `...Sync`
///   query options and the synchronous API). Blocking I/O is expected: the cache never calls a
///   member from the Swift concurrency pool's threads except for those `...Sync` options.
/// - **Reads never throw:** ``entry(forKey:)``, ``data(forKey:)`` and ``containsData(forKey:)``
///   return `nil` / `false` for a missing, expired, damaged or unreadable entry (and may remove
///   it). A read that hits may count as an access for recency and access-date expiry.
/// - **Writes are atomic:** after ``setData(_:forKey:extendedData:)`` returns, readers see the
///   new data and extended data together; before, the old entry or none; never a mix or a
///   truncated value, also when the process is killed mid-write. A write that fails throws a
///   ``/WebImageCore/WebImageError`` (``/WebImageCore/WebImageError/Code/cacheFailure`` for a full or read-only disk, a value
///   over the size limit, ...) naming the key, and leaves the old entry or none.
/// - **Removal** of a key that is not there does nothing; ``removeAll()`` empties the storage.
/// - **Limits** (size, count, age) are the storage's own business, set through its own
///   configuration: the cache only calls ``removeExpiredData(referenceDate:)`` when asked to.
///
/// ``WebImageCache`` treats every key as opaque: any string, including empty ones and ones
/// with `/` or NUL, must work.
public protocol DiskStorage: AnyObject, Sendable {
    /// The data and extended data stored for `key`, read together.
    /// - Returns: `nil` when `key` is missing, expired, or its entry cannot be read.
    func entry(forKey key: String) -> DiskStorageEntry?

    /// The data stored for `key`, without its extended data.
    /// - Returns: `nil` when `key` is missing, expired, or its entry cannot be read.
    func data(forKey key: String) -> Data?

    /// Whether `key` has an entry that ``data(forKey:)`` would return (expired entries do not
    /// count).
    func containsData(forKey key: String) -> Bool

    /// Stores `data` and `extendedData` for `key` atomically, replacing any entry.
    /// - Parameters:
    ///   - data: The encoded image.
    ///   - key: The cache key.
    ///   - extendedData: The image's ``/WebImageCore/WebImage/extendedData``; `nil` stores none (and removes
    ///     any the old entry had).
    /// - Throws: A ``/WebImageCore/WebImageError`` (``/WebImageCore/WebImageError/Code/cacheFailure`` when the write fails
    ///   or the value is over the storage's limit) naming the key; the old entry or none is left.
    func setData(_ data: Data, forKey key: String, extendedData: Data?) throws

    /// Removes the entry for `key`, if any.
    func removeData(forKey key: String)

    /// Removes every entry.
    func removeAll()

    /// The bytes the entries take (at least their data and extended data).
    func totalSize() -> Int

    /// The number of entries.
    func totalCount() -> Int

    /// Removes the entries that are expired at `referenceDate`, and trims the storage to its
    /// limits as its own policy says.
    /// - Parameter referenceDate: "Now" for the age of entries.
    /// - Returns: The number of entries removed.
    @discardableResult
    func removeExpiredData(referenceDate: Date) -> Int
}

/// The built-in disk tier: conforms as it is.
extension DiskCache: DiskStorage {}
