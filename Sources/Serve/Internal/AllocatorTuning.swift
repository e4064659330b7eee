import Foundation
#if canImport(Glibc)
import Glibc
import CMalloc
#endif

/// glibc's allocator, told to give freed memory back to the system: an image server frees
/// bitmaps of tens of megabytes all the time, and glibc's defaults keep much of that memory
/// (its mmap threshold rises after the first large free, so later bitmaps come from arenas that
/// are not trimmed; every thread may get its own arena, up to eight per core).
///
/// Decisions (made once per process, by the first ``ImageServe`` started with
/// ``ImageServeConfiguration/tunesAllocator``):
/// - `M_MMAP_THRESHOLD` 1 MiB, fixed: a block of 1 MiB or more (a bitmap, a source's data) is
///   its own mapping, returned to the system when freed. Setting it also stops glibc from
///   raising it.
/// - `M_TRIM_THRESHOLD` 8 MiB: the top of the main arena is given back beyond that.
/// - `M_ARENA_MAX` two per core: fewer arenas, less memory stranded in them.
/// - ``MemoryBudget`` calls `malloc_trim` after large releases (the other arenas' free pages).
/// - An operator's own glibc settings win: with `GLIBC_TUNABLES` or any `MALLOC_*_` variable
///   of glibc's in the environment, nothing is changed.
enum AllocatorTuning {
    /// Applies the settings; later calls do nothing.
    static func apply() {
        _ = applied
    }

    /// The settings, applied on first use.
    private static let applied: Bool = {
        let environment = ProcessInfo.processInfo.environment
        guard !environment.keys.contains(where: { $0 == "GLIBC_TUNABLES" || ($0.hasPrefix("MALLOC_") && $0.hasSuffix("_")) }) else { return false }
        #if canImport(Glibc)
        _ = mallopt(M_MMAP_THRESHOLD, 1 << 20)
        _ = mallopt(M_TRIM_THRESHOLD, 8 << 20)
        _ = mallopt(M_ARENA_MAX, Int32(clamping: 2 * max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))))
        #endif
        return true
    }()
}
