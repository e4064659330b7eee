#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What tells a file's version apart for the incremental rescan: its size and its modification
/// time to the nanosecond (as `stat` reports them).
struct FileStamp: Hashable, Sendable {
    var size: Int64
    var modificationSeconds: Int64
    var modificationNanoseconds: Int64

    /// The modification time as seconds since 1970.
    var modificationInterval: Double {
        Double(modificationSeconds) + Double(modificationNanoseconds) / 1_000_000_000
    }

    init(size: Int64, modificationSeconds: Int64, modificationNanoseconds: Int64) {
        self.size = size
        self.modificationSeconds = modificationSeconds
        self.modificationNanoseconds = modificationNanoseconds
    }

    init(_ info: stat) {
        size = Int64(info.st_size)
        #if canImport(Darwin)
        modificationSeconds = Int64(info.st_mtimespec.tv_sec)
        modificationNanoseconds = Int64(info.st_mtimespec.tv_nsec)
        #else
        modificationSeconds = Int64(info.st_mtim.tv_sec)
        modificationNanoseconds = Int64(info.st_mtim.tv_nsec)
        #endif
    }
}
