public import WebImageCaches

/// ``SQLiteDiskCache`` as the disk tier of the core's `WebImageCache`: it already has the
/// synchronous API `DiskStorage` asks for (reads never throw; every write is one transaction,
/// so it is atomic also across SIGKILL; safe from any thread), so it conforms as it is.
///
/// ```swift
/// let cache = WebImageCache(diskStorage: SQLiteDiskCache(directory: url), coder: CodersManager.shared)
/// ```
///
/// Its own ``SQLiteDiskCache/Config`` (limits, expiry, inline threshold) stands there: the disk
/// fields of `WebImageCache.Config` apply only to the built-in `DiskCache`.
extension SQLiteDiskCache: DiskStorage {}
