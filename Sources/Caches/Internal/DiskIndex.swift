/// What one disk cache instance knows about the size and recency of its entries, so that the
/// size limit can be checked on every write without listing the directory.
///
/// The directory is listed once, on the first write; every write, read and removal of this
/// instance updates the index; every sweep lists the directory again and merges what it
/// found (so entries written by other processes are counted from then on). Sequence numbers
/// break ties between files whose time stamps are equal (file systems record times at the
/// kernel tick, a few milliseconds), so that "oldest first" is exact within a process; the
/// wall-clock time of the last read or write stands in for the file's access time when the
/// cache skipped refreshing it (it refreshes an access time only once it is a minute old).
///
/// Not thread-safe on its own: ``DiskCache`` keeps it inside its lock.
struct DiskIndex {
    struct Entry {
        var size: Int
        /// When this instance last wrote the entry (0: before this instance knew it).
        var written: UInt64
        /// When this instance last wrote or read the entry.
        var accessed: UInt64
        /// The wall-clock time of that write or read, in seconds since 1970 (0: unknown).
        var accessTime: Double

        mutating func touch(sequence: UInt64, time: Double) {
            accessed = sequence
            accessTime = time
        }
    }

    private(set) var entries: [String: Entry] = [:]
    private(set) var totalSize = 0
    private var sequence: UInt64 = 0
    /// Names changed while a sweep is running; `nil` when no sweep runs.
    private var changedDuringSweep: Set<String>?

    /// An index of the entries found by listing the directory.
    init(scanned: [(name: String, size: Int)]) {
        for item in scanned {
            entries[item.name] = Entry(size: item.size, written: 0, accessed: 0, accessTime: 0)
            totalSize += item.size
        }
    }

    /// Records a write of `size` bytes (data plus sidecar) under `name` at `time`.
    mutating func recordWrite(_ name: String, size: Int, time: Double) {
        sequence += 1
        totalSize += size - (entries[name]?.size ?? 0)
        entries[name] = Entry(size: size, written: sequence, accessed: sequence, accessTime: time)
        changedDuringSweep?.insert(name)
    }

    /// Records a read of `name` at `time`.
    mutating func recordRead(_ name: String, time: Double) {
        sequence += 1
        let sequence = self.sequence
        entries[name]?.touch(sequence: sequence, time: time)
    }

    /// Records the removal of `name`.
    mutating func recordRemoval(_ name: String) {
        if let old = entries.removeValue(forKey: name) { totalSize -= old.size }
        changedDuringSweep?.insert(name)
    }

    /// Starts tracking the names changed during a sweep.
    mutating func beginSweep() {
        changedDuringSweep = []
    }

    /// Ends a sweep: the entries become those the sweep listed and kept, except the names
    /// changed meanwhile, which keep what this index recorded for them.
    mutating func endSweep(kept: [(name: String, size: Int)]) {
        let changed = changedDuringSweep ?? []
        changedDuringSweep = nil
        var merged: [String: Entry] = [:]
        merged.reserveCapacity(kept.count)
        for item in kept {
            var entry = entries[item.name] ?? Entry(size: item.size, written: 0, accessed: 0, accessTime: 0)
            entry.size = item.size
            merged[item.name] = entry
        }
        for name in changed {
            merged[name] = entries[name]
        }
        entries = merged
        totalSize = merged.values.reduce(0) { $0 + $1.size }
    }
}
