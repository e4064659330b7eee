public import Foundation

/// Sweeps, totals and clearing of a ``DiskCache``.
extension DiskCache {
    /// One entry found by listing the directory.
    struct ScannedEntry {
        let name: String
        /// Data plus sidecar.
        let size: Int
        /// The date ``Config/expireType`` names (0 when not asked for).
        let date: Double
    }

    /// What a listing of the directory found.
    struct Scan {
        var entries: [ScannedEntry] = []
        /// `.tmp-*` files and their modification dates.
        var temporaryFiles: [(name: String, date: Double)] = []
        /// Sidecars whose entry is gone, and their modification dates.
        var orphanSidecars: [(name: String, date: Double)] = []
    }

    /// Lists the directory. `nil` when it does not exist (or cannot be read).
    /// - Parameter expireType: The date to report for each entry; `nil` for none.
    func scan(expireType: ExpireType?) -> Scan? {
        guard let items = FileIO.listDirectory(directoryPath, creationDates: expireType == .creationDate) else { return nil }
        var result = Scan()
        var sidecars: [String: DirectoryItem] = [:]
        var entries: [DirectoryItem] = []
        for item in items where item.isRegularFile {
            if CacheFileName.isEntry(item.name) {
                entries.append(item)
            } else if item.name.hasPrefix(CacheFileName.temporaryPrefix) {
                result.temporaryFiles.append((item.name, item.modificationDate))
            } else if item.name.hasPrefix(CacheFileName.sidecarPrefix) {
                sidecars[String(item.name.dropFirst(CacheFileName.sidecarPrefix.count))] = item
            }
        }
        result.entries.reserveCapacity(entries.count)
        for item in entries {
            let sidecar = sidecars.removeValue(forKey: item.name)
            let date: Double = switch expireType {
            case .accessDate: item.accessDate
            case .modificationDate: item.modificationDate
            case .creationDate: item.creationDate ?? item.modificationDate
            case .changeDate: item.changeDate
            case nil: 0
            }
            result.entries.append(ScannedEntry(name: item.name, size: item.size + (sidecar?.size ?? 0), date: date))
        }
        result.orphanSidecars = sidecars.map { (CacheFileName.sidecarName(for: $0.key), $0.value.modificationDate) }
        return result
    }

    /// Removes expired entries, then, when the total is over ``Config/sizeLimit``, the oldest
    /// entries (by ``Config/expireType``) until the total is at most half the limit, as
    /// SDWebImage's sweep does. Also removes temporary files and orphan sidecars left by
    /// killed processes (those older than 10 minutes).
    ///
    /// Blocking file I/O on the calling thread; one sweep runs at a time.
    /// - Parameter referenceDate: "Now" for the age computation (default: the current date).
    /// - Returns: The number of entries removed.
    @discardableResult
    public func removeExpiredData(referenceDate: Date = Date()) -> Int {
        sweep(referenceDate: referenceDate.timeIntervalSince1970, onlyIfOverLimit: false)
    }

    /// The sweep behind ``removeExpiredData(referenceDate:)`` and the size limit on writes.
    /// - Parameter onlyIfOverLimit: The size limit on a write: do nothing unless the known total
    ///   is over the limit (checked again once the sweep lock is held, since another sweep may
    ///   have just run), and nothing either while another sweep runs: that sweep brings the
    ///   total down to half the limit. Waiting for it instead made every write, then every
    ///   file-I/O thread and the reads queued behind them, wait for the whole sweep (a server
    ///   writing 300 results a second stalled for a second each time its cache filled).
    @discardableResult
    func sweep(referenceDate: Double, onlyIfOverLimit: Bool) -> Int {
        if onlyIfOverLimit {
            return sweepLock.withLockIfAvailable { _ in sweepHoldingLock(referenceDate: referenceDate, onlyIfOverLimit: true) } ?? 0
        }
        return sweepLock.withLock { _ in sweepHoldingLock(referenceDate: referenceDate, onlyIfOverLimit: false) }
    }

    /// ``sweep(referenceDate:onlyIfOverLimit:)`` with the sweep lock held.
    private func sweepHoldingLock(referenceDate: Double, onlyIfOverLimit: Bool) -> Int {
        let (config, overLimit, known) = state.withLock { state in
            let over = (state.index?.totalSize ?? 0) > state.config.sizeLimit
            if onlyIfOverLimit, !over { return (state.config, false, [String: DiskIndex.Entry]()) }
            state.index?.beginSweep()
            return (state.config, over, state.index?.entries ?? [:])
        }
        if onlyIfOverLimit, !overLimit { return 0 }
        let accessOrder = config.expireType == .accessDate
        let recency = { (name: String) -> UInt64 in
            guard let entry = known[name] else { return 0 }
            return accessOrder ? entry.accessed : entry.written
        }

        var listing = scan(expireType: config.expireType) ?? Scan()
        if accessOrder {
            // Reads within a minute of the file's access time do not refresh it on disk;
            // the index knows when they happened. The file stays the truth beyond that
            // window (the time may have been set on purpose, or by another process).
            listing.entries = listing.entries.map { entry in
                guard let accessTime = known[entry.name]?.accessTime, accessTime > entry.date,
                      accessTime - entry.date <= Self.accessTimeResolution else { return entry }
                return ScannedEntry(name: entry.name, size: entry.size, date: accessTime)
            }
        }
        var removed = 0
        var kept: [ScannedEntry] = []
        kept.reserveCapacity(listing.entries.count)
        let expiry = referenceDate - config.maxAge
        for entry in listing.entries {
            if config.maxAge >= 0, entry.date < expiry {
                removeFiles(ofEntry: entry.name)
                removed += 1
            } else {
                kept.append(entry)
            }
        }
        var total = kept.reduce(0) { $0 + $1.size }
        if total > config.sizeLimit {
            kept.sort { ($0.date, recency($0.name)) < ($1.date, recency($1.name)) }
            let target = config.sizeLimit / 2
            var count = 0
            while total > target, count < kept.count {
                removeFiles(ofEntry: kept[count].name)
                total -= kept[count].size
                count += 1
            }
            removed += count
            kept.removeFirst(count)
        }
        let staleBefore = FileIO.now() - Self.staleFileAge
        for file in listing.temporaryFiles + listing.orphanSidecars where file.date < staleBefore {
            FileIO.removeFile(directoryPath + "/" + file.name)
        }
        let survivors = kept.map { (name: $0.name, size: $0.size) }
        state.withLock { state in
            if state.index == nil {
                if state.directoryReady { state.index = DiskIndex(scanned: survivors) }
            } else {
                state.index?.endSweep(kept: survivors)
            }
        }
        return removed
    }

    /// Removes an entry's file and sidecar.
    func removeFiles(ofEntry name: String) {
        FileIO.removeFile(directoryPath + "/" + name)
        FileIO.removeFile(directoryPath + "/" + CacheFileName.sidecarName(for: name))
    }

    /// Removes every entry (and sidecar, and stale temporary file) from ``directory``. The
    /// directory itself stays; writes in progress in other threads are not disturbed (their
    /// temporary files are younger than 10 minutes). Read-only directories are left alone.
    public func removeAll() {
        sweepLock.withLock { _ in
            if let listing = scan(expireType: nil) {
                for entry in listing.entries { removeFiles(ofEntry: entry.name) }
                let staleBefore = FileIO.now() - Self.staleFileAge
                for file in listing.orphanSidecars { FileIO.removeFile(directoryPath + "/" + file.name) }
                for file in listing.temporaryFiles where file.date < staleBefore {
                    FileIO.removeFile(directoryPath + "/" + file.name)
                }
            }
            // Listed again at the next write.
            state.withLock { $0.index = nil }
        }
    }

    /// The bytes of every entry in ``directory`` (data plus sidecars), from a fresh listing.
    public func totalSize() -> Int {
        scan(expireType: nil)?.entries.reduce(0) { $0 + $1.size } ?? 0
    }

    /// The number of entries in ``directory``, from a fresh listing. Temporary files and
    /// sidecars are not entries.
    public func totalCount() -> Int {
        scan(expireType: nil)?.entries.count ?? 0
    }
}
