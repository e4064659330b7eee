import Foundation
import WebImageCore
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
/// - `M_ARENA_MAX` one per core (at least 2; glibc's default is eight per core): every thread
///   that allocates may get an arena of its own, and freed bitmaps stay stranded in them. This
///   is what bounds the resident memory (measured through the serve benchmark's cold case at a
///   1 GiB limit: 1,139-1,227 MiB peak with glibc's defaults, 883 MiB with this).
/// - `M_MMAP_THRESHOLD`, fixed (glibc's default starts at 128 KiB and rises up to 32 MiB), from
///   the memory limit. At 2 GiB or more, 32 MiB: a bitmap under it (a 3000x2000 original is
///   24 MB) is taken from an arena and its pages are reused by the next decode instead of being
///   mapped and faulted in again (the serve benchmark's cold case: 127 requests a second at
///   14.8 CPU ms each, peak 889 MiB at a 2 GiB limit). Under 2 GiB, 1 MiB: every bitmap is its
///   own mapping, returned when freed, for 30% less cold throughput (87-90 requests a second,
///   21-22 CPU ms) but a peak well inside the limit (437-543 MiB through `jpeg` and `cold` at
///   1 GiB, 741 MiB through all five cases; with 32 MiB at 1 GiB the five cases peaked at
///   1,103 MiB, 2% under the limit's 10%, and at 512 MiB `cold` went over it). Those figures
///   were measured with the serve benchmark's wrk fault and whole decodes; measured again after
///   shrink-on-load (a 1.5 MB reduced decode per cold request), the two thresholds give the same
///   cold rate (100 against 97 requests a second, 18.4 against 18.8 CPU ms, at 1 and 2 GiB).
/// - `M_TRIM_THRESHOLD` 32 MiB: the top of the main arena beyond that is given back.
/// - ``MemoryBudget`` calls `malloc_trim` after large releases (every arena's free pages).
/// - An operator's own glibc settings win: with `GLIBC_TUNABLES` or any `MALLOC_` variable
///   of glibc's in the environment, nothing is changed.
enum AllocatorTuning {
    /// Applies the settings for a server of `memoryLimit` bytes; later calls do nothing.
    static func apply(memoryLimit: Int) {
        limit.withLock { $0 = $0 ?? memoryLimit }
        _ = applied
    }

    /// The memory limit of the first server that applied the settings.
    private static let limit = Locked<Int?>(nil)

    /// The settings, applied on first use.
    private static let applied: Bool = {
        let mmapThreshold: Int32 = (limit.withLock { $0 } ?? 0) >= 2 << 30 ? 32 << 20 : 1 << 20
        let environment = ProcessInfo.processInfo.environment
        guard !environment.keys.contains(where: { $0 == "GLIBC_TUNABLES" || $0.hasPrefix("MALLOC_") }) else { return false }
        #if canImport(Glibc)
        _ = mallopt(M_ARENA_MAX, Int32(clamping: max(2, sysconf(Int32(_SC_NPROCESSORS_ONLN)))))
        _ = mallopt(M_MMAP_THRESHOLD, mmapThreshold)
        _ = mallopt(M_TRIM_THRESHOLD, 32 << 20)
        #endif
        return true
    }()
}
