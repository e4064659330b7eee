public import Foundation

/// Sweeps of a ``SQLiteDiskCache``.
extension SQLiteDiskCache {
    /// Removes expired entries, then, when a limit is exceeded, the least recently used until
    /// both hold; removes value files that no entry names once they are 10 minutes old (left by
    /// killed processes); and gives freed pages back to the file system.
    ///
    /// Blocking I/O on the calling thread. Call it at launch or now and then, as SDWebImage does
    /// on app termination; writes enforce the limits by themselves.
    /// - Parameter referenceDate: "Now" for the age of entries and files.
    /// - Returns: The number of entries removed.
    @discardableResult
    public func removeExpiredData(referenceDate: Date) -> Int {
        let now = Int64(referenceDate.timeIntervalSince1970 * 1_000_000)
        let swept = try? withDatabase { state, connection -> (removed: Int, referenced: Set<String>) in
            let config = state.config
            let touches = state.pendingTouches
            let (removed, totals, files, referenced) = try connection.writeTransaction {
                () -> (Int, (size: Int, count: Int), [String], Set<String>) in
                try writeTouches(touches, connection)
                var totals = try self.totals(connection)
                var files: [String] = []
                var removed = try deleteExpired(config: config, now: now, totals: &totals, removedFiles: &files, connection)
                removed += try trim(&totals, config: config, now: now, removedFiles: &files, connection)
                let referenced = try connection.withStatement("SELECT file_name FROM entries WHERE file_name IS NOT NULL") { statement in
                    var names = Set<String>()
                    while try statement.step() { if let name = statement.string(0) { names.insert(name) } }
                    return names
                }
                return (removed, totals, files, referenced)
            }
            state.pendingTouches.removeAll()
            state.totalSize = totals.size
            state.totalCount = totals.count
            state.dataVersion = (try? connection.scalarInt("PRAGMA data_version")) ?? -1
            state.obsoleteFiles += files
            try? connection.execute("PRAGMA wal_checkpoint(PASSIVE)")
            return (removed, referenced)
        }
        guard let swept else { return 0 }
        // Orphans: files no row names. Young ones may belong to a write in progress.
        let staleBefore = referenceDate.timeIntervalSince1970 - Self.staleFileAge
        for file in self.files.list() where ValueFiles.isValidName(file.name) && !swept.referenced.contains(file.name) && file.modificationDate < staleBefore {
            self.files.remove(file.name)
        }
        return swept.removed
    }

    /// ``removeExpiredData(referenceDate:)`` with now, by the cache's clock.
    @discardableResult
    public func removeExpiredData() -> Int {
        removeExpiredData(referenceDate: clock())
    }
}
